import type { Core } from '@strapi/strapi';
import { ARTICLE_UID } from '../constants';
import { getService } from '../utils/get-service';
import { documentWrite, type DocumentMiddleware } from './context';

/**
 * Before an article is created or updated, whichever way (this plugin's POST, the Content
 * Manager, its bulk actions, a script): the contract's checks refuse bad fields with a 400 naming
 * each, and the defaults are filled in.
 */
export const applyArticleRules =
  (strapi: Core.Strapi): DocumentMiddleware =>
  async (context, next) => {
    const write = documentWrite(context);
    if (write === null || write.uid !== ARTICLE_UID || (write.action !== 'create' && write.action !== 'update')) return next();
    await getService(strapi, 'article-rules').apply(write.action, write.params);
    return next();
  };
