import type { Core } from '@strapi/strapi';
import { ARTICLE_UID } from '../constants';
import { getService } from '../infrastructure/get-service';
import { documentWrite, writtenDocumentId, type DocumentMiddleware } from './context';

/**
 * After an article write, the plugin's lookup rows (tags, search) follow its published version,
 * in the write's transaction (a deleted article's view count waits in the trash with it).
 */
export const syncArticleIndexes =
  (strapi: Core.Strapi): DocumentMiddleware =>
  async (context, next) => {
    const write = documentWrite(context);
    if (write === null || write.uid !== ARTICLE_UID) return next();
    const result = await next();
    const documentId = writtenDocumentId(write, result);
    if (documentId !== null) await getService(strapi, 'article-index').syncDocument(documentId);
    return result;
  };
