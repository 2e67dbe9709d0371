import type { Core } from '@strapi/strapi';
import { ARTICLE_UID, CATEGORY_UID } from '../constants';
import { afterCommit } from '../repositories/transactions';
import { getService } from '../utils/get-service';
import { documentWrite, type DocumentMiddleware } from './context';

const PLUGIN_TYPES = new Set<string>([ARTICLE_UID, CATEGORY_UID]);

/**
 * After an article or category write, the remembered public reads are dropped once the write is
 * committed: dropped earlier, a read on another connection could remember the state before it.
 */
export const dropCachedReads =
  (strapi: Core.Strapi): DocumentMiddleware =>
  async (context, next) => {
    const write = documentWrite(context);
    if (write === null || !PLUGIN_TYPES.has(write.uid)) return next();
    const result = await next();
    await afterCommit(strapi, () => getService(strapi, 'read-cache').invalidate());
    return result;
  };
