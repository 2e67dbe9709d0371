import type { Core } from '@strapi/strapi';
import { ensureCountTable } from '../repositories/article-counts';
import { ensureIdempotencyTable } from '../repositories/idempotency-keys';
import { ensureOldSlugTable } from '../repositories/old-slugs';
import { ensurePhotoJobTable } from '../repositories/photo-jobs';
import { ensureRateLimitTable } from '../repositories/rate-limits';
import { searchIndex } from '../repositories/search';
import { ensureTagTable } from '../repositories/tags';
import { viewCounts } from '../repositories/view-counts';
import {
  CATEGORY_NAME_UNIQUE_INDEX,
  CATEGORY_SLUG_UNIQUE_INDEX,
  DRAFT_SLUG_UNIQUE_INDEX,
  PUBLISHED_ARTICLE_IDS_INDEX,
  VIEW_COUNT_VIEWS_INDEX,
  SCHEDULED_ARTICLES_INDEX,
  TABLES,
  UNCOUNTED_READING_TIMES_INDEX,
  VIEW_COUNT_UNIQUE_INDEX,
} from '../constants';

/**
 * Tables the plugin owns beside Strapi's schema. Strapi leaves tables and indexes it never created
 * alone, so they are created here, idempotently, on every boot.
 */
const pluginTables = ({ strapi }: { strapi: Core.Strapi }) => ({
  async ensure(): Promise<void> {
    const knex = strapi.db.connection;

    // Views are the content type view-count (Strapi creates its table, so a data transfer carries
    // them); the read's upsert needs one row per article, which Strapi's schema format cannot say.
    // Rows written past it (a script through the Document Service) are merged first, keeping the largest count.
    const viewCountIndex = `CREATE UNIQUE INDEX IF NOT EXISTS ${VIEW_COUNT_UNIQUE_INDEX} ON ${TABLES.viewCounts} (article_document_id)`;
    try {
      await knex.raw(viewCountIndex);
    } catch {
      const removed = await viewCounts(strapi).removeDuplicates();
      strapi.log.warn(`artikel: removed ${removed} duplicate view counts (kept the largest of each article)`);
      await knex.raw(viewCountIndex);
    }
    const moved = await viewCounts(strapi).moveLegacyCounts();
    if (moved > 0) strapi.log.info(`artikel: moved ${moved} view counts from ${TABLES.legacyViews} to the view-count content type`);

    // The tag rows and search entries are built together (see article-index): new tag rows, new search entries.
    const tags = await ensureTagTable(strapi);
    await searchIndex(strapi).ensure({ empty: tags.created });
    // The published articles' counts, kept with the index rows (see article-index); counted at start when new.
    await ensureCountTable(strapi);
    await ensureRateLimitTable(strapi);
    await ensureIdempotencyTable(strapi);
    await ensureOldSlugTable(strapi);
    await ensurePhotoJobTable(strapi);

    // Every article has exactly one draft row, so a unique slug among draft rows is a unique slug
    // per article; Strapi's schema format cannot express a partial or an expression index.
    await this.uniqueIndex(DRAFT_SLUG_UNIQUE_INDEX, `${TABLES.articles} (slug) WHERE published_at IS NULL`);
    // Categories have no Draft & Publish: one row each. These make concurrent creates of one new
    // category end in one row.
    await this.uniqueIndex(CATEGORY_SLUG_UNIQUE_INDEX, `${TABLES.categories} (slug)`);
    await this.uniqueIndex(CATEGORY_NAME_UNIQUE_INDEX, `${TABLES.categories} (LOWER(name))`);
    // Which article rows are published, without reading the rows: on SQLite their published_at lies
    // past the text, in the row's overflow pages (see publishedRowsById in repositories/articles/published-rows.ts).
    // Built once, by the first start that finds it missing, which reads every article row for it
    // (19.6 s on a SQLite file of a million articles, 1.5 s at 100,000); later starts find it.
    await knex.raw(`CREATE INDEX IF NOT EXISTS ${PUBLISHED_ARTICLE_IDS_INDEX} ON ${TABLES.articles} (id) WHERE published_at IS NOT NULL`);
    // The list sorted by views walks the read articles most read first and stops after a page,
    // instead of sorting every published article by its count.
    await knex.raw(`CREATE INDEX IF NOT EXISTS ${VIEW_COUNT_VIEWS_INDEX} ON ${TABLES.viewCounts} (views) WHERE views > 0`);
    // The schedules: the scheduler asks every second which came due, which must not read every article.
    await knex.raw(
      `CREATE INDEX IF NOT EXISTS ${SCHEDULED_ARTICLES_INDEX} ON ${TABLES.articles} (publish_at) WHERE publish_at IS NOT NULL`,
    );
    // The rows whose reading time was never counted (see repositories/reading-times.ts): every start
    // looks for them, which without it read the whole table to find none (8.7 s at a million
    // articles, on the long-read thread that searches share). Writes count the minutes, so it
    // stays empty and costs them nothing; built once, by the first start that finds it missing.
    await knex.raw(`CREATE INDEX IF NOT EXISTS ${UNCOUNTED_READING_TIMES_INDEX} ON ${TABLES.articles} (id) WHERE reading_time IS NULL`);
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
