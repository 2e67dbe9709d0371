import type { Core } from '@strapi/strapi';
import { ARTICLE_UID } from './constants';
import type { ArticleData } from './services/article-defaults';
import { getService } from './utils/get-service';

/** Document actions after which the published state of an article may differ. */
const PUBLICATION_CHANGES = new Set(['create', 'update', 'delete', 'publish', 'unpublish', 'discardDraft']);

interface DocumentActionContext {
  uid: string;
  action: string;
  params: { documentId?: string; data?: ArticleData };
}

const register = ({ strapi }: { strapi: Core.Strapi }) => {
  // One middleware for every path that writes articles (this plugin's POST, the admin, scripts):
  // the defaults are applied before each create and update, and the plugin's lookup tables follow
  // every publish, unpublish, edit and delete.
  strapi.documents.use(async (context, next) => {
    const ctx = context as unknown as DocumentActionContext;
    if (ctx.uid !== ARTICLE_UID || !PUBLICATION_CHANGES.has(ctx.action)) return next();
    if (ctx.action === 'create' || ctx.action === 'update') {
      await getService(strapi, 'article-defaults').apply(ctx.action, ctx.params);
    }
    const result = await next();
    const documentId = ctx.params.documentId ?? (result as { documentId?: string } | null)?.documentId;
    if (documentId) {
      await getService(strapi, 'article-index').syncDocument(documentId);
      if (ctx.action === 'delete') await getService(strapi, 'article-views').forget(documentId);
    }
    return result;
  });
};

export default register;
