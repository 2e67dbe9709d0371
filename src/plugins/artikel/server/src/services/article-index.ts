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

const RECONCILE_BATCH = 500;
const SEARCH_INDEX_CHUNK = 1000;

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
 * Indexes the published row of documents that have no entry yet: the given document, or up to
 * `limit` of any. FTS5 slows down badly on one huge INSERT … SELECT, so a rebuild goes in chunks.
 */
async function addToSearch(knex: Knex, scope: { documentId: string } | { limit: number }): Promise<number> {
  const onlyDocument = 'documentId' in scope ? 'AND a.document_id = ?' : '';
  const bindings = 'documentId' in scope ? [scope.documentId] : [];
  const limit = 'limit' in scope ? `LIMIT ${scope.limit}` : '';
  const before = (await knex(TABLES.searchDocuments).max({ id: 'id' }).first()) as { id: number | null } | undefined;
  const lastId = Number(before?.id ?? 0);
  await knex.raw(
    `INSERT INTO ${TABLES.searchDocuments} (document_id)
     SELECT DISTINCT a.document_id FROM ${TABLES.articles} a
     WHERE a.published_at IS NOT NULL ${onlyDocument}
       AND NOT EXISTS (SELECT 1 FROM ${TABLES.searchDocuments} d WHERE d.document_id = a.document_id)
     ${limit}`,
    bindings,
  );
  await knex.raw(
    `INSERT INTO ${TABLES.search} (rowid, title, content, tags)
     SELECT d.id, COALESCE(a.title, ''), COALESCE(a.content, ''), COALESCE(a.tags, '')
     FROM ${TABLES.searchDocuments} d JOIN ${TABLES.articles} a ON a.document_id = d.document_id AND a.published_at IS NOT NULL
     WHERE d.id > ?`,
    [lastId],
  );
  const after = (await knex(TABLES.searchDocuments).max({ id: 'id' }).first()) as { id: number | null } | undefined;
  return Number(after?.id ?? 0) - lastId;
}

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
    let added = 0;
    for (let chunk = 1; chunk > 0; added += chunk) {
      chunk = await knex.transaction((trx) => addToSearch(trx, { limit: SEARCH_INDEX_CHUNK }));
      if (chunk > 0 && Math.floor((added + chunk) / 10_000) > Math.floor(added / 10_000)) strapi.log.info(`artikel: search index: ${added + chunk} articles added`);
    }
    if (added + unpublished.length > 0) strapi.log.info(`artikel: search index updated (${added} added, ${unpublished.length} removed)`);
  },
});

export default articleIndex;
