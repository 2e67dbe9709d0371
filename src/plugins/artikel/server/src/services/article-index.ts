import type { Core } from '@strapi/strapi';
import { TABLES } from '../constants';
import { inTransaction } from '../repositories/transactions';
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
const SEARCH_INDEX_CHUNK = 2000;

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

/**
 * Indexes published articles that have no entry yet, in article id order: the one document given,
 * or the next `limit` after article id `afterId`. Returns how many were added and the last article
 * id seen, for the next chunk. The unary + and CROSS JOIN pin the plans to id ranges: with the
 * published_at index SQLite would read every published article for each chunk.
 */
async function addToSearch(knex: Knex, scope: { documentId: string } | { afterId: number; limit: number }): Promise<{ added: number; lastId: number }> {
  const [filter, bindings] = 'documentId' in scope ? ['a.document_id = ?', [scope.documentId]] : ['a.id > ?', [scope.afterId]];
  const limit = 'limit' in scope ? `LIMIT ${scope.limit}` : '';
  const before = (await knex(TABLES.searchDocuments).max({ id: 'id' }).first()) as { id: number | null } | undefined;
  const lastDocsId = Number(before?.id ?? 0);
  await knex.raw(
    `INSERT INTO ${TABLES.searchDocuments} (document_id)
     SELECT a.document_id FROM ${TABLES.articles} a
     WHERE +a.published_at IS NOT NULL AND ${filter}
       AND NOT EXISTS (SELECT 1 FROM ${TABLES.searchDocuments} d WHERE d.document_id = a.document_id)
     ORDER BY a.id ${limit}`,
    bindings,
  );
  await knex.raw(
    `INSERT INTO ${TABLES.search} (rowid, title, content, tags)
     SELECT d.id, COALESCE(a.title, ''), COALESCE(a.content, ''), COALESCE(a.tags, '')
     FROM ${TABLES.searchDocuments} d CROSS JOIN ${TABLES.articles} a ON a.document_id = d.document_id AND +a.published_at IS NOT NULL
     WHERE d.id > ?`,
    [lastDocsId],
  );
  const result = (await knex.raw(
    `SELECT COUNT(*) AS added, MAX(a.id) AS last_id FROM ${TABLES.searchDocuments} d CROSS JOIN ${TABLES.articles} a ON a.document_id = d.document_id
     WHERE +a.published_at IS NOT NULL AND d.id > ?`,
    [lastDocsId],
  )) as Array<{ added: number; last_id: number | null }>;
  return { added: Number(result[0]?.added ?? 0), lastId: Number(result[0]?.last_id ?? 0) };
}

/**
 * Keeps the plugin's lookup tables (tags, full-text search) in step with the published articles.
 * Called after every write that can change what is published (see the document middleware in
 * register.ts), and at boot to repair what changed behind the Document Service's back.
 */
const articleIndex = ({ strapi }: { strapi: Core.Strapi }) => ({
  async syncDocument(documentId: string): Promise<void> {
    // The index is keyed by document and must follow the published row exactly; FTS5 has no
    // model at all. Joins the write's transaction (see document-middlewares).
    await inTransaction(strapi, async ({ trx }) => {
      const published = (await trx(TABLES.articles)
        .select('document_id', 'tags', 'published_at')
        .where({ document_id: documentId })
        .whereNotNull('published_at')) as PublishedRow[];
      await trx(TABLES.tags).where({ document_id: documentId }).delete();
      await insertTags(trx, published);
      if (isSqlite(strapi)) {
        await removeFromSearch(trx, [documentId]);
        await addToSearch(trx, { documentId });
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
    // A transaction per chunk keeps the WAL small (one transaction for 100,000 articles grew it past
    // 1 GB); article id order keeps each chunk a range scan; FTS5's automatic merging is paused
    // during the build and replaced by one merge at the end.
    let added = 0;
    await knex.raw(`INSERT INTO ${TABLES.search} (${TABLES.search}, rank) VALUES ('automerge', 0)`);
    for (let afterId = 0; ; ) {
      const chunk = await knex.transaction((trx) => addToSearch(trx, { afterId, limit: SEARCH_INDEX_CHUNK }));
      if (chunk.added === 0) break;
      if (Math.floor((added + chunk.added) / 10_000) > Math.floor(added / 10_000)) strapi.log.info(`artikel: search index: ${added + chunk.added} articles added`);
      added += chunk.added;
      afterId = chunk.lastId;
    }
    if (added > SEARCH_INDEX_CHUNK) {
      await knex.raw(`INSERT INTO ${TABLES.search} (${TABLES.search}) VALUES ('optimize')`);
      // The merge went through the WAL; give its disk space back instead of keeping a file as big as the index.
      await knex.raw('PRAGMA wal_checkpoint(TRUNCATE)');
      // Refreshes planner statistics that an earlier ANALYZE took while the index was empty, if any.
      await knex.raw('PRAGMA optimize');
    }
    // Written on every boot, so a build cut off by a crash never leaves merging paused.
    await knex.raw(`INSERT INTO ${TABLES.search} (${TABLES.search}, rank) VALUES ('automerge', ${FTS_DEFAULT_AUTOMERGE})`);
    if (added + unpublished.length > 0) strapi.log.info(`artikel: search index updated (${added} added, ${unpublished.length} removed)`);
  },
});

export default articleIndex;
