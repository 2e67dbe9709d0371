import type { Core } from '@strapi/strapi';
import { ARTICLE_UID, CATEGORY_UID } from '../constants';
import { inTransaction } from '../repositories/transactions';
import { documentWrite, type DocumentMiddleware } from './context';

const PLUGIN_TYPES = new Set<string>([ARTICLE_UID, CATEGORY_UID]);

/**
 * Every article and category write runs in one transaction with the work the next middlewares
 * do around it (checks, defaults, index rows): the caller's transaction when it has one (the
 * Content Manager's publish and bulk actions), else a new one. So the write and its index rows
 * commit or roll back together, and nothing waits for a second connection.
 */
export const oneTransaction =
  (strapi: Core.Strapi): DocumentMiddleware =>
  (context, next) => {
    const write = documentWrite(context);
    if (write === null || !PLUGIN_TYPES.has(write.uid)) return next();
    return inTransaction(strapi, () => next());
  };
