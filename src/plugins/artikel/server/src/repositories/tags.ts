import type { Core } from '@strapi/strapi';
import { TABLES } from '../constants';
import { parseTags, tagKey } from '../utils/tags';
import { database, type Knex } from './transactions';

interface PublishedRow {
  id: number;
  document_id: string;
  tags: string | null;
  published_at: unknown;
}

// Knex writes a multi-row insert on SQLite as one compound SELECT, which SQLite caps at 500 terms.
const BATCH = 500;

async function insertTags(db: Knex, rows: PublishedRow[]): Promise<void> {
  const entries = rows.flatMap((row) =>
    parseTags(row.tags).map((tag) => ({ tag: tagKey(tag), document_id: row.document_id, published_at: row.published_at, article_id: row.id })),
  );
  for (let start = 0; start < entries.length; start += BATCH) {
    await db(TABLES.tags).insert(entries.slice(start, start + BATCH)).onConflict(['tag', 'document_id']).ignore();
  }
}

/**
 * The tag index: one row per tag of each published article (the tag's key, its document, the
 * published row it was built from and that row's publication date), so a tag filter and related
 * articles use an index instead of parsing every article's tags.
 */
export const tagIndex = (strapi: Core.Strapi) => ({
  /** Makes a document's rows follow its published row, in the current transaction. */
  async sync(documentId: string): Promise<void> {
    const db = database(strapi);
    const published = (await db(TABLES.articles).select('id', 'document_id', 'tags', 'published_at').where({ document_id: documentId }).whereNotNull('published_at')) as PublishedRow[];
    await db(TABLES.tags).where({ document_id: documentId }).delete();
    await insertTags(db, published);
  },

  /**
   * Removes rows not built from a current published row (a document no longer published, or whose
   * published row was replaced, as a data transfer does) and adds the published documents that have
   * none. A row edited in place behind the Document Service's back keeps its id: sync repairs it.
   */
  async rebuild(): Promise<void> {
    const db = database(strapi);
    // A correlated NOT EXISTS: each entry looks its row up by primary key.
    await db.raw(
      `DELETE FROM ${TABLES.tags} WHERE NOT EXISTS (SELECT 1 FROM ${TABLES.articles} a
         WHERE a.id = ${TABLES.tags}.article_id AND a.document_id = ${TABLES.tags}.document_id AND a.published_at IS NOT NULL)`,
    );
    const missing = (await db({ a: TABLES.articles })
      .select('a.id', 'a.document_id', 'a.tags', 'a.published_at')
      .whereNotNull('a.published_at')
      .whereNotNull('a.tags')
      .whereNotExists(db({ t: TABLES.tags }).select(db.raw('1')).whereRaw('t.document_id = a.document_id'))) as PublishedRow[];
    await insertTags(db, missing);
  },
});

/**
 * The tag table, created at every boot if missing. published_at is copied so related articles can
 * take the newest of each tag from it; article_id is the published row an entry was built from, so
 * rebuild can tell an entry whose row was replaced behind the Document Service's back (a data
 * transfer recreates every row). It is derived data: a table from before either column existed is
 * dropped and rebuilt.
 */
export async function ensureTagTable(strapi: Core.Strapi): Promise<void> {
  const knex = strapi.db.connection;
  if ((await knex.schema.hasTable(TABLES.tags)) && !((await knex.schema.hasColumn(TABLES.tags, 'published_at')) && (await knex.schema.hasColumn(TABLES.tags, 'article_id')))) {
    await knex.schema.dropTable(TABLES.tags);
  }
  if (await knex.schema.hasTable(TABLES.tags)) return;
  await knex.schema.createTable(TABLES.tags, (table) => {
    table.string('tag', 255).notNullable();
    table.string('document_id', 255).notNullable();
    table.datetime('published_at').notNullable();
    table.integer('article_id').notNullable();
    table.primary(['tag', 'document_id']);
    table.index(['document_id'], `${TABLES.tags}_document_idx`);
    table.index(['tag', 'published_at'], `${TABLES.tags}_tag_published_idx`);
  });
}
