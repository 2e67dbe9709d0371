import type { Core } from '@strapi/strapi';
import { ARTICLE_UID, TABLES } from '../constants';
import { database } from '../infrastructure/transactions';
import { documentWrite, type DocumentMiddleware } from './context';

/**
 * Publishing or unpublishing an article, whoever does it (an editor's button, PATCH, the
 * scheduler itself), ends its schedule: a schedule says when a draft goes live, and after either
 * action there is nothing left for it to do. Written past the Document Service, in the action's
 * transaction, so clearing the field is not a write of its own (no second webhook).
 */
export const cancelScheduleOnPublish =
  (strapi: Core.Strapi): DocumentMiddleware =>
  async (context, next) => {
    const write = documentWrite(context);
    if (write === null || write.uid !== ARTICLE_UID || (write.action !== 'publish' && write.action !== 'unpublish')) return next();
    const result = await next();
    if (write.params.documentId !== undefined) {
      await database(strapi)(TABLES.articles)
        .where('document_id', write.params.documentId)
        .whereNotNull('publish_at')
        .update({ publish_at: null });
    }
    return result;
  };
