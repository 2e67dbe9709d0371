import type { Core } from '@strapi/strapi';

/** FTS5 exists on SQLite only; on PostgreSQL the search falls back to LIKE. */
export function isSqlite(strapi: Core.Strapi): boolean {
  return strapi.db.dialect.client === 'sqlite';
}
