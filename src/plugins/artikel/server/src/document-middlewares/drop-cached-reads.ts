import type { Core } from '@strapi/strapi';
import { getService } from '../infrastructure/get-service';
import { ARTICLE_UID, CATEGORY_UID } from '../constants';
import { documentWrite, isArticleOrCategory, writtenDocumentId, type DocumentMiddleware } from './context';

/** Whether a write's relation field names any document to connect or set (the Content Manager sends `{ connect: [], disconnect: [] }` for none). */
function connectsAny(relation: unknown): boolean {
  if (relation === undefined || relation === null) return false;
  if (Array.isArray(relation)) return relation.length > 0;
  if (typeof relation !== 'object') return true;
  const { connect, set } = relation as { connect?: unknown; set?: unknown };
  return connectsAny(connect) || connectsAny(set);
}

/**
 * After an article or category write, the remembered public reads it can change are dropped once
 * the write is committed (dropped earlier, a read on another connection could remember the state before it),
 * here and on every other instance of the service.
 */
export const dropCachedReads =
  (strapi: Core.Strapi): DocumentMiddleware =>
  async (context, next) => {
    const write = documentWrite(context);
    if (write === null || !isArticleOrCategory(write.uid)) return next();
    const freshness = getService(strapi, 'read-freshness');
    // The article's published version before (a new one has none): what the write changed is told from it.
    const before = write.uid === ARTICLE_UID ? await freshness.articleWriteBegins(write.params.documentId) : null;
    const result = await next();
    // What an article's write changed is told from its published version before and after (see
    // read-freshness); a category's (its name, its slug) shows in every article of it: everything,
    // unless it is new and no article is put in it (the category list and category names only).
    const documentId = write.uid === ARTICLE_UID ? writtenDocumentId(write, result) : null;
    if (write.uid === CATEGORY_UID && write.action === 'create' && !connectsAny(write.params.data?.articles))
      await freshness.written('published');
    else if (documentId === null) await freshness.written('everything');
    else await freshness.articleWritten(documentId, before);
    return result;
  };
