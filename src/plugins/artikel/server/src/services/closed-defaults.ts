import type { Core } from '@strapi/strapi';
import { strapiDefaults } from '../repositories/strapi-defaults';

const END_USER_ROLES = ['public', 'authenticated'];
// The tokens Strapi's admin makes by itself on a database without administrators and tokens (its
// DEFAULT_API_TOKENS), by their names and descriptions.
const STRAPI_DEFAULT_TOKENS = [
  { name: 'Read Only', description: 'A default API token with read-only permissions, only used for accessing resources' },
  { name: 'Full Access', description: 'A default API token with full access permissions, used for accessing or modifying resources' },
];

/**
 * What Strapi opens by default that the studio keeps closed. users-permissions is kept because
 * Strapi needs it, but the studio has no visitor accounts: its public API is /api/artikel, whose
 * routes need no role's permission.
 */
const closedDefaults = ({ strapi }: { strapi: Core.Strapi }) => {
  return {
    /** Registration off: users-permissions' POST /api/auth/local/register would create confirmed users with a JWT. */
    async closeRegistration(): Promise<void> {
      const store = strapi.store({ type: 'plugin', name: 'users-permissions', key: 'advanced' });
      const advanced = ((await store.get({})) ?? {}) as Record<string, unknown>;
      if (advanced.allow_register !== false) await store.set({ value: { ...advanced, allow_register: false } });
    },

    /** The Public and Authenticated roles hold no action (login, password reset, users, uploads): every start. */
    async emptyEndUserRoles(): Promise<number> {
      return strapiDefaults(strapi).emptyRolesOfTypes(END_USER_ROLES);
    },

    /**
     * Strapi's admin makes a "Read Only" and a "Full Access" API token on a database without
     * administrators and tokens, before anyone asked for one. While there is still no
     * administrator, tokens with exactly those names and descriptions are Strapi's and are removed
     * (every token the studio has is one an administrator or `npm run token` made).
     */
    async removeUnaskedTokens(): Promise<number> {
      if ((await strapiDefaults(strapi).administratorCount()) > 0) return 0;
      return strapiDefaults(strapi).removeTokensNamed(STRAPI_DEFAULT_TOKENS);
    },
  };
};

export default closedDefaults;
