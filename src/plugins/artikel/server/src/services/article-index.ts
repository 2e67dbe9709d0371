import type { Core } from '@strapi/strapi';
import { TABLES } from '../constants';
import { searchIndex } from '../repositories/search';
import { inTransaction } from '../repositories/transactions';
import { parseTags, tagKey } from '../utils/tags';

type Knex = Core.Strapi['db']['connection'];

interface PublishedRow {
  document_id: string;
  tags: string | null;
  published_at: unknown;
}

// Knex writes a multi-row insert on SQLite as one compound SELECT, which SQLite caps at 500 terms.
const RECONCILE_BATCH = 500;

function tagRows(rows: PublishedRow[]): Array<{ tag: string; document_id: string; published_at: unknown }> {
  return rows.flatMap((row) => parseTags(row.tags).map((tag) => ({ tag: tagKey(tag), document_id: row.document_id, published_at: row.published_at })));
}

async function insertTags(knex: Knex, rows: PublishedRow[]): Promise<void> {
  const tags = tagRows(rows);
  for (let start = 0; start < tags.length; start += RECONCILE_BATCH) {
    await knex(TABLES.tags).insert(tags.slice(start, start + RECONCILE_BATCH)).onConflict(['tag', 'document_id']).ignore();
  }
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
      await searchIndex(strapi).sync(trx, documentId);
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

    const search = await searchIndex(strapi).rebuild();
    if (search.added + search.removed > 0) strapi.log.info(`artikel: search index updated (${search.added} added, ${search.removed} removed)`);
  },
});

export default articleIndex;
