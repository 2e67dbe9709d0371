import type { Core } from '@strapi/strapi';
import { TABLES } from '../constants';
import { isSqlite } from '../utils/database-dialect';
import { parseTags, tagKey } from '../utils/tags';

type Knex = Core.Strapi['db']['connection'];

interface PublishedRow {
  document_id: string;
  tags: string | null;
  published_at: unknown;
}

// Knex writes a multi-row insert on SQLite as one compound SELECT, which SQLite caps at 500 terms.
const RECONCILE_BATCH = 500;
const FTS_DEFAULT_AUTOMERGE = 4;

function tagRows(rows: PublishedRow[]): Array<{ tag: string; document_id: string; published_at: unknown }> {
  return rows.flatMap((row) => parseTags(row.tags).map((tag) => ({ tag: tagKey(tag), document_id: row.document_id, published_at: row.published_at })));
}

async function insertTags(knex: Knex, rows: PublishedRow[]): Promise<void> {
  const tags = tagRows(rows);
  for (let start = 0; start < tags.length; start += RECONCILE_BATCH) {
    await knex(TABLES.tags).insert(tags.slice(start, start + RECONCILE_BATCH)).onConflict(['tag', 'document_id']).ignore();
  }
}

/** FTS5 rows are addressed by rowid only, so a document's entry is removed through its docs row. */
async function removeFromSearch(knex: Knex, documentIds: string[]): Promise<void> {
  for (let start = 0; start < documentIds.length; start += RECONCILE_BATCH) {
    const batch = documentIds.slice(start, start + RECONCILE_BATCH);
    const placeholders = batch.map(() => '?').join(', ');
    await knex.raw(
      `DELETE FROM ${TABLES.search} WHERE rowid IN (SELECT id FROM ${TABLES.searchDocuments} WHERE document_id IN (${placeholders}))`,
      batch,
    );
    await knex(TABLES.searchDocuments).whereIn('document_id', batch).delete();
  }
}

interface IndexedRow {
  id: number;
  document_id: string;
  title: string | null;
  content: string | null;
  tags: string | null;
}

/** Adds these published rows to the search index, skipping documents that already have an entry. */
async function addToSearch(knex: Knex, rows: IndexedRow[]): Promise<void> {
  if (rows.length === 0) return;
  const documentIds = rows.map((row) => row.document_id);
  const existing = new Set(
    ((await knex(TABLES.searchDocuments).select('document_id').whereIn('document_id', documentIds)) as Array<{ document_id: string }>).map((row) => row.document_id),
  );
  const fresh = rows.filter((row) => !existing.has(row.document_id));
  if (fresh.length === 0) return;
  await knex(TABLES.searchDocuments).insert(fresh.map((row) => ({ document_id: row.document_id })));
  const ids = (await knex(TABLES.searchDocuments).select('id', 'document_id').whereIn('document_id', fresh.map((row) => row.document_id))) as Array<{ id: number; document_id: string }>;
  const idOf = new Map(ids.map((row) => [row.document_id, row.id]));
  await knex(TABLES.search).insert(
    fresh.map((row) => ({ rowid: idOf.get(row.document_id), title: row.title ?? '', content: row.content ?? '', tags: row.tags ?? '' })),
  );
}

const INDEXED_COLUMNS = ['id', 'document_id', 'title', 'content', 'tags'];

/**
 * Keeps the plugin's lookup tables (tags, full-text search) in step with the published articles.
 * Called after every write that can change what is published (see the document middleware in
 * register.ts), and at boot to repair what changed behind the Document Service's back.
 */
const articleIndex = ({ strapi }: { strapi: Core.Strapi }) => ({
  async syncDocument(documentId: string): Promise<void> {
    // The index is keyed by document and must follow the published row exactly, which the
    // Document Service cannot express as one delete-and-insert transaction; FTS5 has no model at all.
    await strapi.db.connection.transaction(async (trx) => {
      const published = (await trx(TABLES.articles)
        .select('document_id', 'tags', 'published_at')
        .where({ document_id: documentId })
        .whereNotNull('published_at')) as PublishedRow[];
      await trx(TABLES.tags).where({ document_id: documentId }).delete();
      await insertTags(trx, published);
      if (isSqlite(strapi)) {
        await removeFromSearch(trx, [documentId]);
        await addToSearch(trx, (await trx(TABLES.articles).select(INDEXED_COLUMNS).where({ document_id: documentId }).whereNotNull('published_at')) as IndexedRow[]);
      }
    });
  },

  /**
   * Removes entries of documents no longer published and adds published documents that have
   * none. An edit made behind the Document Service's back is not detected; syncDocument repairs it.
   */
  async reconcile(): Promise<void> {
    const knex = strapi.db.connection;
    const publishedIds = knex(TABLES.articles).select('document_id').whereNotNull('published_at');
    await knex(TABLES.tags).whereNotIn('document_id', publishedIds).delete();
    const missingTags = (await knex({ a: TABLES.articles })
      .select('a.document_id', 'a.tags', 'a.published_at')
      .whereNotNull('a.published_at')
      .whereNotNull('a.tags')
      .whereNotExists(knex({ t: TABLES.tags }).select(knex.raw('1')).whereRaw('t.document_id = a.document_id'))) as PublishedRow[];
    await insertTags(knex, missingTags);

    if (!isSqlite(strapi)) return;
    const unpublished = (await knex(TABLES.searchDocuments).select('document_id').whereNotIn('document_id', publishedIds)) as Array<{ document_id: string }>;
    await knex.transaction((trx) => removeFromSearch(trx, unpublished.map((row) => row.document_id)));
    // One transaction, in chunks walked in article id order, with FTS5's automatic merging paused
    // and one merge at the end. Measured at 100,000 articles: this takes about 2 minutes; a single
    // INSERT … SELECT, a commit per chunk or document-id order each took 20 minutes or more.
    const missing = (await knex({ a: TABLES.articles })
      .select('a.id')
      .whereNotNull('a.published_at')
      .whereNotExists(knex({ d: TABLES.searchDocuments }).select(knex.raw('1')).whereRaw('d.document_id = a.document_id'))
      .orderBy('a.id')) as Array<{ id: number }>;
    if (missing.length > 0) {
      await knex.transaction(async (trx) => {
        await trx.raw(`INSERT INTO ${TABLES.search} (${TABLES.search}, rank) VALUES ('automerge', 0)`);
        for (let start = 0; start < missing.length; start += RECONCILE_BATCH) {
          const ids = missing.slice(start, start + RECONCILE_BATCH).map((row) => row.id);
          await addToSearch(trx, (await trx(TABLES.articles).select(INDEXED_COLUMNS).whereIn('id', ids).orderBy('id')) as IndexedRow[]);
          if (start % 10_000 === 0 && start > 0) strapi.log.info(`artikel: search index: ${start} of ${missing.length} articles added`);
        }
        await trx.raw(`INSERT INTO ${TABLES.search} (${TABLES.search}, rank) VALUES ('automerge', ${FTS_DEFAULT_AUTOMERGE})`);
        if (missing.length > RECONCILE_BATCH) await trx.raw(`INSERT INTO ${TABLES.search} (${TABLES.search}) VALUES ('optimize')`);
      });
    }
    const added = missing.length;
    if (added + unpublished.length > 0) strapi.log.info(`artikel: search index updated (${added} added, ${unpublished.length} removed)`);
  },
});

export default articleIndex;
