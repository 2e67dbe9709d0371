import type { Core } from '@strapi/strapi';
import { applyRules } from './apply-rules';
import type { StrapiDocumentMiddleware } from './context';
import { dropCachedReads } from './drop-cached-reads';
import { oneTransaction } from './one-transaction';
import { syncArticleIndexes } from './sync-article-indexes';

/**
 * The write pipeline of articles and categories, outermost first. Read the "before" work top to
 * bottom and the "after" work bottom to top: checks and defaults → the write → index rows →
 * cached reads dropped after the commit, all inside one transaction.
 */
const PIPELINE = [oneTransaction, dropCachedReads, syncArticleIndexes, applyRules];

export function registerDocumentMiddlewares(strapi: Core.Strapi): void {
  for (const middleware of PIPELINE) strapi.documents.use(middleware(strapi) as StrapiDocumentMiddleware);
}
