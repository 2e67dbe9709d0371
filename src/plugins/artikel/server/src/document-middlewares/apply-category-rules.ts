import type { Core } from '@strapi/strapi';
import { CATEGORY_UID } from '../constants';
import { getService } from '../utils/get-service';
import { documentWrite, type DocumentMiddleware } from './context';

/** Before a category is created or updated, whichever way: it gets a unique slug from its name when it has none. */
export const applyCategoryRules =
  (strapi: Core.Strapi): DocumentMiddleware =>
  async (context, next) => {
    const write = documentWrite(context);
    if (write === null || write.uid !== CATEGORY_UID || (write.action !== 'create' && write.action !== 'update')) return next();
    await getService(strapi, 'categories').applyRules(write.action, write.params);
    return next();
  };
