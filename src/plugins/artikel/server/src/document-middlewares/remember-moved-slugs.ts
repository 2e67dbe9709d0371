import type { Core } from '@strapi/strapi';
import { ARTICLE_UID } from '../constants';
import { oldSlugs } from '../repositories/old-slugs';
import { currentSlugOf } from '../repositories/slug-rows';
import { documentWrite, type DocumentMiddleware } from './context';

/**
 * When an article's slug changes, whichever way (PATCH, the Content Manager, a script), its old
 * slug is kept for it: the old address answers with a redirect to wherever the article is now, and
 * no other article may take it. Moving back to an old slug makes it current again; deleting the
 * article frees all of them once it leaves the trash (see move-to-trash.ts). Runs after the rules, so the slug compared is the one to be stored.
 */
export const rememberMovedSlugs =
  (strapi: Core.Strapi): DocumentMiddleware =>
  async (context, next) => {
    const write = documentWrite(context);
    if (write === null || write.uid !== ARTICLE_UID) return next();
    const { documentId, data } = write.params;
    if (write.action !== 'update' || documentId === undefined || typeof data?.slug !== 'string') return next();
    const before = await currentSlugOf(strapi, documentId);
    const result = await next();
    if (before !== null && before !== data.slug) {
      await oldSlugs(strapi).remember(before, documentId);
      await oldSlugs(strapi).forgetSlug(data.slug);
    }
    return result;
  };
