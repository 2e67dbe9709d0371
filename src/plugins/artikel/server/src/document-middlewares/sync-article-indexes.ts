import type { Core } from '@strapi/strapi';
import { ARTICLE_UID, CATEGORY_UID } from '../constants';
import { getService } from '../infrastructure/get-service';
import { documentWrite, writtenDocumentId, type DocumentMiddleware } from './context';

/**
 * Whether a category write's `articles` field moves any article in or out: the Content Manager
 * sends `{ connect: [], disconnect: [] }` when nothing moved; `set` (even empty) replaces them all.
 */
function movesArticles(relation: unknown): boolean {
  if (relation === undefined || relation === null) return false;
  if (Array.isArray(relation)) return true;
  if (typeof relation !== 'object') return true;
  const { connect, disconnect, set } = relation as { connect?: unknown; disconnect?: unknown; set?: unknown };
  const some = (value: unknown): boolean => value !== undefined && value !== null && (!Array.isArray(value) || value.length > 0);
  return set !== undefined || some(connect) || some(disconnect);
}

/**
 * After an article write, the plugin's lookup rows (tags, search) and the published articles'
 * counts follow its published version, in the write's transaction (a deleted article's view count
 * waits in the trash with it). The counts change by the difference between the document before
 * and after the write, read here around it (drop-cached-reads, outside, has taken the article
 * writes' turn by then). A category write that moves or unlinks articles has its counts redone.
 */
export const syncArticleIndexes =
  (strapi: Core.Strapi): DocumentMiddleware =>
  async (context, next) => {
    const write = documentWrite(context);
    if (write === null) return next();
    const index = getService(strapi, 'article-index');
    if (write.uid === CATEGORY_UID) {
      const result = await next();
      await index.categoryWritten({ deleted: write.action === 'delete', moved: movesArticles(write.params.data?.articles) });
      return result;
    }
    if (write.uid !== ARTICLE_UID) return next();
    const before = await index.countedBefore(write.params.documentId);
    const result = await next();
    const documentId = writtenDocumentId(write, result);
    if (documentId !== null) await index.syncDocument(documentId, before);
    return result;
  };
