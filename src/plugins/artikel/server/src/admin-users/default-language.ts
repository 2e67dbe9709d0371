import type { Core } from '@strapi/strapi';
import { getConfig } from '../infrastructure/get-service';

const ADMIN_USER_UID = 'admin::user';

interface AdminUserData {
  preferedLanguage?: string | null;
}

/**
 * The admin shows the interface language stored on the user once they are signed in, and English
 * (or the language last chosen in that browser) for a user with none. So the studio's default is
 * stored on every admin user created without one: the first administrator (register-admin), an
 * invited editor (POST /admin/users) and one made with `strapi admin:create-user` all go through
 * this create. Users who exist already keep what they have.
 */
export function defaultAdminLanguage(strapi: Core.Strapi): void {
  strapi.db.lifecycles.subscribe({
    models: [ADMIN_USER_UID],
    beforeCreate(event) {
      const data = event.params.data as AdminUserData | undefined;
      if (data && !data.preferedLanguage) data.preferedLanguage = getConfig(strapi, 'adminDefaultLocale');
    },
  });
}
