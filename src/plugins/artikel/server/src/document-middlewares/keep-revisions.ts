import type { Core } from '@strapi/strapi';
import { ARTICLE_UID } from '../constants';
import { getService } from '../infrastructure/get-service';
import { documentWrite, type DocumentMiddleware, writtenDocumentId } from './context';

/**
 * Every write of an article, whichever way it comes (PATCH, the Content Manager and its bulk
 * actions, MCP, the scheduler, a script), keeps the version it leaves as a revision, in the same
 * transaction (see services/revisions.ts). Runs just inside the transaction, so the version it
 * keeps is the one every other step has finished with.
 */
export const keepRevisions =
  (strapi: Core.Strapi): DocumentMiddleware =>
  async (context, next) => {
    const write = documentWrite(context);
    if (write === null || write.uid !== ARTICLE_UID) return next();
    // A deleted article's revisions wait in the trash with it (see move-to-trash.ts).
    if (write.action === 'delete') return next();
    const revisions = getService(strapi, 'revisions');
    const { documentId } = write.params;
    if (documentId !== undefined) await revisions.beforeWrite(documentId, write.action);
    const result = await next();
    const written = writtenDocumentId(write, result);
    if (written !== null) await revisions.afterWrite(written, write.action);
    return result;
  };
