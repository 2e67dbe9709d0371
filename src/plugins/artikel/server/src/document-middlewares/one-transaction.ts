import type { Core } from '@strapi/strapi';
import { inTransaction } from '../infrastructure/transactions';
import { documentWrite, isArticleOrCategory, type DocumentMiddleware } from './context';
import { inPipeline } from '../infrastructure/pipeline-scope';

/**
 * Every article and category write runs in one transaction with the work the next middlewares
 * do around it (checks, defaults, index rows): the caller's transaction when it has one (the
 * Content Manager's publish and bulk actions), else a new one. So the write and its index rows
 * commit or roll back together, and nothing waits for a second connection. Its database writes
 * are marked as the pipeline's, so the watch on other writes (register.ts) leaves them alone.
 */
export const oneTransaction =
  (strapi: Core.Strapi): DocumentMiddleware =>
  (context, next) => {
    const write = documentWrite(context);
    if (write === null || !isArticleOrCategory(write.uid)) return next();
    return inPipeline(() => inTransaction(strapi, () => next()));
  };
