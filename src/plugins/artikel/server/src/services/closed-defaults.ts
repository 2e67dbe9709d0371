import type { Core } from '@strapi/strapi';

const END_USER_ROLES = ['public', 'authenticated'];
const ROLE_UID = 'plugin::users-permissions.role';
const PERMISSION_UID = 'plugin::users-permissions.permission';
const API_TOKEN_UID = 'admin::api-token';
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
      const roles = (await strapi.db.query(ROLE_UID).findMany({ where: { type: { $in: END_USER_ROLES } } })) as Array<{ id: number }>;
      if (roles.length === 0) return 0;
      const { count } = await strapi.db
        .query(PERMISSION_UID)
        .deleteMany({ where: { role: { id: { $in: roles.map((role) => role.id) } } } });
      return count;
    },

    /**
     * Strapi's admin makes a "Read Only" and a "Full Access" API token on a database without
     * administrators and tokens, before anyone asked for one. While there is still no
     * administrator, tokens with exactly those names and descriptions are Strapi's and are removed
     * (every token the studio has is one an administrator or `npm run token` made).
     */
    async removeUnaskedTokens(): Promise<number> {
      if ((await strapi.db.query('admin::user').count()) > 0) return 0;
      const { count } = await strapi.db.query(API_TOKEN_UID).deleteMany({ where: { $or: STRAPI_DEFAULT_TOKENS } });
      return count;
    },
  };
};

export default closedDefaults;
