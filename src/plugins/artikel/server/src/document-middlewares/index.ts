import type { Core } from '@strapi/strapi';
import { applyRules } from './apply-rules';
import { cancelScheduleOnPublish } from './cancel-schedule-on-publish';
import type { StrapiDocumentMiddleware } from './context';
import { dropCachedReads } from './drop-cached-reads';
import { keepRevisions } from './keep-revisions';
import { moveToTrash } from './move-to-trash';
import { oneTransaction } from './one-transaction';
import { rememberMovedSlugs } from './remember-moved-slugs';
import { syncArticleIndexes } from './sync-article-indexes';

/**
 * The write pipeline of articles and categories, outermost first. Read the "before" work top to
 * bottom and the "after" work bottom to top: checks and defaults → the write → an ended schedule
 * and a moved slug recorded → index rows → cached reads dropped after the commit → the version the
 * write left kept as a revision (a deleted article's last one kept in the trash), all inside one
 * transaction.
 */
const PIPELINE = [
  oneTransaction,
  keepRevisions,
  moveToTrash,
  dropCachedReads,
  syncArticleIndexes,
  applyRules,
  rememberMovedSlugs,
  cancelScheduleOnPublish,
];

export function registerDocumentMiddlewares(strapi: Core.Strapi): void {
  for (const middleware of PIPELINE) strapi.documents.use(middleware(strapi) as StrapiDocumentMiddleware);
}
