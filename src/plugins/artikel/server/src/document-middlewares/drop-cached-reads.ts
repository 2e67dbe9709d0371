import type { Core } from '@strapi/strapi';
import { getService } from '../utils/get-service';
import { ARTICLE_UID } from '../constants';
import { documentWrite, isArticleOrCategory, writtenDocumentId, type DocumentMiddleware } from './context';

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
    const result = await next();
    // An article's write changes its own page, the published set and related articles by its tags
    // and category; a category's (its name, its slug) shows in every article of it: everything.
    const documentId = write.uid === ARTICLE_UID ? writtenDocumentId(write, result) : null;
    if (documentId === null) await getService(strapi, 'read-freshness').written('everything');
    else await getService(strapi, 'read-freshness').articleWritten(documentId);
    return result;
  };
