import type { Core } from '@strapi/strapi';
import { ensureRateLimitTable } from '../repositories/rate-limits';
import { searchIndex } from '../repositories/search';
import { CATEGORY_NAME_UNIQUE_INDEX, CATEGORY_SLUG_UNIQUE_INDEX, DRAFT_SLUG_UNIQUE_INDEX, TABLES } from '../constants';

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

    // The tags of published articles, one row per tag, so a tag filter and related articles use an
    // index; published_at is copied so related articles can take the newest of each tag from it.
    // It is derived data: a table from before published_at was added is rebuilt by reconcile.
    if ((await knex.schema.hasTable(TABLES.tags)) && !(await knex.schema.hasColumn(TABLES.tags, 'published_at'))) {
      await knex.schema.dropTable(TABLES.tags);
    }
    if (!(await knex.schema.hasTable(TABLES.tags))) {
      await knex.schema.createTable(TABLES.tags, (table) => {
        table.string('tag', 255).notNullable();
        table.string('document_id', 255).notNullable();
        table.datetime('published_at').notNullable();
        table.primary(['tag', 'document_id']);
        table.index(['document_id'], `${TABLES.tags}_document_idx`);
        table.index(['tag', 'published_at'], `${TABLES.tags}_tag_published_idx`);
      });
    }

    await searchIndex(strapi).ensure();
    await ensureRateLimitTable(strapi);

    // Every article has exactly one draft row, so a unique slug among draft rows is a unique slug
    // per article; Strapi's schema format cannot express a partial or an expression index.
    await this.uniqueIndex(DRAFT_SLUG_UNIQUE_INDEX, `${TABLES.articles} (slug) WHERE published_at IS NULL`);
    // Categories have no Draft & Publish: one row each. These make concurrent creates of one new
    // category end in one row.
    await this.uniqueIndex(CATEGORY_SLUG_UNIQUE_INDEX, `${TABLES.categories} (slug)`);
    await this.uniqueIndex(CATEGORY_NAME_UNIQUE_INDEX, `${TABLES.categories} (LOWER(name))`);
  },

  /** A unique index the data already breaks is reported, not fatal: the service still starts. */
  async uniqueIndex(name: string, definition: string): Promise<void> {
    try {
      await strapi.db.connection.raw(`CREATE UNIQUE INDEX IF NOT EXISTS ${name} ON ${definition}`);
    } catch (error) {
      strapi.log.error(`artikel: could not create the unique index ${name}; remove the duplicates it names. ${String(error)}`);
    }
  },
});

export default pluginTables;
