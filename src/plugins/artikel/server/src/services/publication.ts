import type { Core } from '@strapi/strapi';
import { ARTICLE_UID } from '../constants';
import { getService } from '../infrastructure/get-service';
import { inPipeline } from '../infrastructure/pipeline-scope';
import { restampPublishedAt } from '../repositories/scheduled-articles';

/**
 * Publishing with a publication time other than now. The Document Service stamps every publish with
 * the moment it ran; a scheduled article was due at its schedule, and a live article whose typo is
 * fixed keeps its place in the newest-first order. Publishes through the Document Service (rules,
 * indexes, caches, notices, the entry.publish webhook), then restamps the published version and
 * its index rows, all in the caller's transaction.
 */
const publication = ({ strapi }: { strapi: Core.Strapi }) => ({
  async publishAt(documentId: string, publishedAt: Date): Promise<void> {
    await strapi.documents(ARTICLE_UID).publish({ documentId });
    // Part of the pipeline's write, not one behind it: the watch on outside writes (register.ts) would
    // otherwise repair the index and drop the remembered view counts, unwritten ones included.
    await inPipeline(() => restampPublishedAt(strapi, documentId, publishedAt));
    await getService(strapi, 'article-index').publicationRestamped(documentId);
  },
});

export default publication;
