import type { Core } from '@strapi/strapi';

const ROLE_UID = 'plugin::users-permissions.role';
const PERMISSION_UID = 'plugin::users-permissions.permission';
const API_TOKEN_UID = 'admin::api-token';
const ADMIN_USER_UID = 'admin::user';

/**
 * The rows of Strapi's own models that the studio closes at start (services/closed-defaults.ts):
 * users-permissions' end-user roles and their permissions, the API tokens, the administrators.
 */
export function strapiDefaults(strapi: Core.Strapi) {
  return {
    /** Removes every permission of the users-permissions roles of these types; resolves to how many. */
    async emptyRolesOfTypes(types: readonly string[]): Promise<number> {
      const roles = (await strapi.db.query(ROLE_UID).findMany({ where: { type: { $in: [...types] } } })) as Array<{ id: number }>;
      if (roles.length === 0) return 0;
      const { count } = await strapi.db
        .query(PERMISSION_UID)
        .deleteMany({ where: { role: { id: { $in: roles.map((role) => role.id) } } } });
      return count;
    },

    administratorCount: (): Promise<number> => strapi.db.query(ADMIN_USER_UID).count(),

    /** Removes the API tokens with exactly these names and descriptions; resolves to how many. */
    async removeTokensNamed(tokens: ReadonlyArray<{ name: string; description: string }>): Promise<number> {
      const { count } = await strapi.db.query(API_TOKEN_UID).deleteMany({ where: { $or: tokens.map((token) => ({ ...token })) } });
      return count;
    },
  };
}
