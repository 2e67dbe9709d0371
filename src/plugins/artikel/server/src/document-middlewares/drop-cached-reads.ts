import type { Core } from '@strapi/strapi';
import { getService } from '../utils/get-service';
import { documentWrite, isArticleOrCategory, type DocumentMiddleware } from './context';

/**
 * After an article or category write, the remembered public reads are dropped once the write is
 * committed (dropped earlier, a read on another connection could remember the state before it),
 * here and on every other instance of the service.
 */
export const dropCachedReads =
  (strapi: Core.Strapi): DocumentMiddleware =>
  async (context, next) => {
    const write = documentWrite(context);
    if (write === null || !isArticleOrCategory(write.uid)) return next();
    const result = await next();
    await getService(strapi, 'read-freshness').written();
    return result;
  };
