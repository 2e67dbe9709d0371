/**
 * The languages the admin offers: Strapi ships its own strings for each, and this plugin has a
 * translation file for each (admin/src/translations). The admin app and the server's default for
 * new editors both read this list, so a default can never name a language the picker lacks.
 */
export const ADMIN_LOCALES = ['en', 'de', 'id'] as const;

export type AdminLocale = (typeof ADMIN_LOCALES)[number];

/** The studio's editors work in Indonesian: a new admin user without a choice of their own gets it. */
export const DEFAULT_ADMIN_LOCALE: AdminLocale = 'id';

export function isAdminLocale(value: string): value is AdminLocale {
  return (ADMIN_LOCALES as readonly string[]).includes(value);
}
