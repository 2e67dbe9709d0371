import type { Core } from '@strapi/strapi';
import { TABLES } from '../constants';
import { parseTags, tagKey } from '../utils/tags';

interface PublishedTagsRow {
  document_id: string;
  tags: string | null;
}

function tagRows(rows: PublishedTagsRow[]): Array<{ tag: string; document_id: string }> {
  return rows.flatMap((row) => parseTags(row.tags).map((tag) => ({ tag: tagKey(tag), document_id: row.document_id })));
}

/**
 * Keeps the plugin's lookup tables in step with the published articles. Called after every write
 * that can change what is published (see the document middleware in register.ts).
 */
const articleIndex = ({ strapi }: { strapi: Core.Strapi }) => ({
  async syncDocument(documentId: string): Promise<void> {
    // The index is keyed by document and must follow the published row exactly, which the
    // Document Service cannot express as one delete-and-insert transaction.
    await strapi.db.connection.transaction(async (trx) => {
      const published = (await trx(TABLES.articles)
        .select('document_id', 'tags')
        .where({ document_id: documentId })
        .whereNotNull('published_at')) as PublishedTagsRow[];
      await trx(TABLES.tags).where({ document_id: documentId }).delete();
      const rows = tagRows(published);
      if (rows.length > 0) await trx(TABLES.tags).insert(rows).onConflict(['tag', 'document_id']).ignore();
    });
  },

  /** Repairs the index after writes that bypassed the Document Service (imports, a crash between commits). */
  async reconcile(): Promise<void> {
    const knex = strapi.db.connection;
    const publishedIds = knex(TABLES.articles).select('document_id').whereNotNull('published_at');
    await knex(TABLES.tags).whereNotIn('document_id', publishedIds).delete();
    const missing = (await knex({ a: TABLES.articles })
      .select('a.document_id', 'a.tags')
      .whereNotNull('a.published_at')
      .whereNotNull('a.tags')
      .whereNotExists(knex({ t: TABLES.tags }).select(knex.raw('1')).whereRaw('t.document_id = a.document_id'))) as PublishedTagsRow[];
    const rows = tagRows(missing);
    for (let start = 0; start < rows.length; start += 500) {
      await knex(TABLES.tags).insert(rows.slice(start, start + 500)).onConflict(['tag', 'document_id']).ignore();
    }
  },
});

export default articleIndex;
