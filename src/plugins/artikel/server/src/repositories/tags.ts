import type { Core } from '@strapi/strapi';
import { TABLES } from '../constants';
import { FOLD_SQL_FUNCTION, foldCase } from '../utils/search-words';
import { parseTags, tagKey } from '../utils/tags';
import { yieldToEventLoop } from '../utils/event-loop';
import { lastOfBatch } from '../infrastructure/document-batches';
import { oncePerStrapi } from '../infrastructure/once-per-strapi';
import { database, type Knex } from '../infrastructure/transactions';
import { INSERT_BATCH_ROWS } from '../infrastructure/row-limits';

interface PublishedRow {
  id: number;
  document_id: string;
  tags: string | null;
  published_at: unknown;
}

async function insertTags(db: Knex, rows: PublishedRow[]): Promise<void> {
  const entries = rows.flatMap((row) =>
    parseTags(row.tags).map((tag) => ({
      tag: tagKey(tag),
      document_id: row.document_id,
      published_at: row.published_at,
      article_id: row.id,
    })),
  );
  for (let start = 0; start < entries.length; start += INSERT_BATCH_ROWS) {
    await db(TABLES.tags)
      .insert(entries.slice(start, start + INSERT_BATCH_ROWS))
      .onConflict(['tag', 'document_id'])
      .ignore();
  }
}

/**
 * The tag index: one row per tag of each published article (the tag's key, its document, the
 * published row it was built from and that row's publication date), so a tag filter and related
 * articles use an index instead of parsing every article's tags.
 */
export const tagIndex = oncePerStrapi((strapi: Core.Strapi) => ({
  /** Makes a document's rows follow its published row, in the current transaction. */
  async sync(documentId: string): Promise<void> {
    const db = database(strapi);
    const published = (await db(TABLES.articles)
      .select('id', 'document_id', 'tags', 'published_at')
      .where({ document_id: documentId })
      .whereNotNull('published_at')) as PublishedRow[];
    await db(TABLES.tags).where({ document_id: documentId }).delete();
    await insertTags(db, published);
  },

  /**
   * Removes the rows not built from the row their document's search entry was built from. The two
   * are built together (see article-index), so what is left are the rows of indexed articles.
   */
  async removeUnindexed(): Promise<void> {
    const db = database(strapi);
    // A batch of documents per statement (see lastOfBatch); a correlated NOT EXISTS:
    // each row looks its document's entry up by its unique key.
    for (let after = ''; ;) {
      const last = await lastOfBatch(db, TABLES.tags, after);
      if (last === null) return;
      await db.raw(
        `DELETE FROM ${TABLES.tags} WHERE document_id > ? AND document_id <= ? AND NOT EXISTS (SELECT 1 FROM ${TABLES.searchDocuments} d
           WHERE d.document_id = ${TABLES.tags}.document_id AND d.article_id = ${TABLES.tags}.article_id)`,
        [after, last],
      );
      after = last;
      await yieldToEventLoop();
    }
  },

  /** Adds the rows of these published article rows, in the current transaction. */
  async add(articleIds: number[]): Promise<void> {
    const db = database(strapi);
    for (let start = 0; start < articleIds.length; start += INSERT_BATCH_ROWS) {
      const rows = (await db(TABLES.articles)
        .select('id', 'document_id', 'tags', 'published_at')
        .whereIn('id', articleIds.slice(start, start + INSERT_BATCH_ROWS))
        .whereNotNull('published_at')) as PublishedRow[];
      await insertTags(db, rows);
    }
  },
}));

/**
 * The tag table, created at every boot if missing. published_at is copied so related articles can
 * take the newest of each tag from it; article_id is the published row an entry was built from, so
 * the index can tell an entry whose row was replaced behind the Document Service's back (a data
 * transfer recreates every row). It is derived data: a table from before either column existed is
 * dropped and rebuilt.
 */
export async function ensureTagTable(strapi: Core.Strapi): Promise<{ created: boolean }> {
  const knex = strapi.db.connection;
  if (
    (await knex.schema.hasTable(TABLES.tags)) &&
    !((await knex.schema.hasColumn(TABLES.tags, 'published_at')) && (await knex.schema.hasColumn(TABLES.tags, 'article_id')))
  ) {
    await knex.schema.dropTable(TABLES.tags);
  }
  if (await knex.schema.hasTable(TABLES.tags)) return { created: false };
  await knex.schema.createTable(TABLES.tags, (table) => {
    table.string('tag', 255).notNullable();
    table.string('document_id', 255).notNullable();
    table.datetime('published_at').notNullable();
    table.integer('article_id').notNullable();
    table.primary(['tag', 'document_id']);
    table.index(['document_id'], `${TABLES.tags}_document_idx`);
    table.index(['tag', 'published_at'], `${TABLES.tags}_tag_published_idx`);
  });
  return { created: true };
}

/**
 * SQL that is true where an article's tags (column `column`) hold this tag key, read from the text
 * instead of the index (while it is built, see index-state). Tags are stored as written by
 * formatTags ("a, b"); the spaces around each comma are taken out, the case folded (on SQLite by
 * the plugin's function, whose folding is Unicode's; its LOWER folds ASCII only), and the key is
 * looked for between commas.
 */
export function hasTagByScan(column: string, key: string, sqlite: boolean): { sql: string; bindings: string[] } {
  const fold = sqlite ? FOLD_SQL_FUNCTION : 'LOWER';
  const listed = `',' || ${fold}(TRIM(REPLACE(REPLACE(${column}, ' ,', ','), ', ', ','))) || ','`;
  return { sql: `${sqlite ? 'instr' : 'strpos'}(${listed}, ?) > 0`, bindings: [`,${foldCase(key)},`] };
}
