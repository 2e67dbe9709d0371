import type { Core } from '@strapi/strapi';
import { DRAFT_SLUG_UNIQUE_INDEX, TABLES } from '../constants';

/**
 * Tables the plugin owns beside Strapi's schema. Strapi leaves tables and indexes it never created
 * alone, so they are created here, idempotently, on every boot.
 */
const pluginTables = ({ strapi }: { strapi: Core.Strapi }) => ({
  async ensure(): Promise<void> {
    const knex = strapi.db.connection;

    // Views live outside the Draft & Publish rows: publishing replaces the published row by a copy
    // of the draft, and the admin's edit form would write back a stale count.
    if (!(await knex.schema.hasTable(TABLES.views))) {
      await knex.schema.createTable(TABLES.views, (table) => {
        table.string('document_id', 255).primary();
        table.integer('views').notNullable().defaultTo(0);
      });
    }

    // The tags of published articles, one row per tag, so a tag filter and related articles use an index.
    if (!(await knex.schema.hasTable(TABLES.tags))) {
      await knex.schema.createTable(TABLES.tags, (table) => {
        table.string('tag', 255).notNullable();
        table.string('document_id', 255).notNullable();
        table.primary(['tag', 'document_id']);
        table.index(['document_id'], `${TABLES.tags}_document_idx`);
      });
    }

    // Every document has exactly one draft row, so a unique slug among draft rows is a unique slug
    // per article; Strapi's schema format cannot express a partial index.
    await knex.raw(
      `CREATE UNIQUE INDEX IF NOT EXISTS ${DRAFT_SLUG_UNIQUE_INDEX} ON ${TABLES.articles} (slug) WHERE published_at IS NULL`,
    );
  },
});

export default pluginTables;
