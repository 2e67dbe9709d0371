import type { Core } from '@strapi/strapi';
import { TABLES } from '../constants';
import { searchIndex } from '../repositories/search';
import { inTransaction } from '../repositories/transactions';
import { parseTags, tagKey } from '../utils/tags';

type Knex = Core.Strapi['db']['connection'];

interface PublishedRow {
  id: number;
  document_id: string;
  tags: string | null;
  published_at: unknown;
}

// Knex writes a multi-row insert on SQLite as one compound SELECT, which SQLite caps at 500 terms.
const RECONCILE_BATCH = 500;

function tagRows(rows: PublishedRow[]): Array<{ tag: string; document_id: string; published_at: unknown; article_id: number }> {
  return rows.flatMap((row) =>
    parseTags(row.tags).map((tag) => ({ tag: tagKey(tag), document_id: row.document_id, published_at: row.published_at, article_id: row.id })),
  );
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
 * register.ts), and at boot and after writes that bypassed the Document Service (a data transfer,
 * see register.ts) to repair what changed behind its back. Every entry records the published row it
 * was built from (article_id), so an entry whose row was replaced is rebuilt.
 */
const articleIndex = ({ strapi }: { strapi: Core.Strapi }) => ({
  async syncDocument(documentId: string): Promise<void> {
    // The index is keyed by document and must follow the published row exactly; FTS5 has no
    // model at all. Joins the write's transaction (see document-middlewares).
    await inTransaction(strapi, async ({ trx }) => {
      const published = (await trx(TABLES.articles)
        .select('id', 'document_id', 'tags', 'published_at')
        .where({ document_id: documentId })
        .whereNotNull('published_at')) as PublishedRow[];
      await trx(TABLES.tags).where({ document_id: documentId }).delete();
      await insertTags(trx, published);
      await searchIndex(strapi).sync(trx, documentId);
    });
  },

  /**
   * Removes entries not built from a current published row (of documents no longer published, or
   * whose published row was deleted and created anew, as a data transfer does) and adds published
   * documents that have none. A row edited in place behind the Document Service's back keeps its id
   * and is not detected; syncDocument repairs it.
   */
  async reconcile(): Promise<void> {
    const knex = strapi.db.connection;
    // A correlated NOT EXISTS: each entry looks its row up by primary key.
    await knex.raw(
      `DELETE FROM ${TABLES.tags} WHERE NOT EXISTS (SELECT 1 FROM ${TABLES.articles} a
         WHERE a.id = ${TABLES.tags}.article_id AND a.document_id = ${TABLES.tags}.document_id AND a.published_at IS NOT NULL)`,
    );
    const missingTags = (await knex({ a: TABLES.articles })
      .select('a.id', 'a.document_id', 'a.tags', 'a.published_at')
      .whereNotNull('a.published_at')
      .whereNotNull('a.tags')
      .whereNotExists(knex({ t: TABLES.tags }).select(knex.raw('1')).whereRaw('t.document_id = a.document_id'))) as PublishedRow[];
    await insertTags(knex, missingTags);

    const search = await searchIndex(strapi).rebuild();
    if (search.added + search.removed > 0) strapi.log.info(`artikel: search index updated (${search.added} added, ${search.removed} removed)`);
  },
});

export default articleIndex;
