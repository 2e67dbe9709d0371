import type { Core } from '@strapi/strapi';
import { searchIndex } from '../repositories/search';
import { tagIndex } from '../repositories/tags';
import { inTransaction } from '../repositories/transactions';

/**
 * Keeps the plugin's lookup tables (tags, full-text search) in step with the published articles.
 * Called after every write that can change what is published (see document-middlewares), and at
 * boot and after writes that bypassed the Document Service (a data transfer, see outside-writes)
 * to repair what changed behind its back. Every entry records the published row it was built from
 * (article_id), so an entry whose row was replaced is rebuilt.
 */
const articleIndex = ({ strapi }: { strapi: Core.Strapi }) => ({
  async syncDocument(documentId: string): Promise<void> {
    // Joins the write's transaction, so the index never disagrees with what was committed.
    await inTransaction(strapi, async ({ trx }) => {
      await tagIndex(strapi).sync(documentId);
      await searchIndex(strapi).sync(trx, documentId);
    });
  },

  async reconcile(): Promise<void> {
    await tagIndex(strapi).rebuild();
    const search = await searchIndex(strapi).rebuild();
    if (search.added + search.removed > 0) strapi.log.info(`artikel: search index updated (${search.added} added, ${search.removed} removed)`);
  },
});

export default articleIndex;
