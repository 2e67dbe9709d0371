import type { Core } from '@strapi/strapi';
import { ARTICLE_UID } from '../constants';
import { getService } from '../infrastructure/get-service';
import { documentWrite, type DocumentMiddleware } from './context';

/**
 * A deleted article, whichever way it is deleted (DELETE, the Content Manager and its bulk delete,
 * an agent, a script), goes into the trash in the delete's own transaction: its rows are gone from
 * every public read, while what it leaves (views, old slugs, revisions) waits for a restore or the
 * purge. Without a trash (ARTIKEL_TRASH_DAYS=0) what it leaves goes with it.
 */
export const moveToTrash =
  (strapi: Core.Strapi): DocumentMiddleware =>
  async (context, next) => {
    const write = documentWrite(context);
    const documentId = write?.params.documentId;
    if (write === null || write.uid !== ARTICLE_UID || write.action !== 'delete' || documentId === undefined) return next();
    const trash = getService(strapi, 'trash');
    if (trash.enabled()) {
      await trash.keep(documentId);
      return next();
    }
    const result = await next();
    await trash.forgetLeftovers(documentId);
    return result;
  };
