import type { Core } from '@strapi/strapi';
import { ARTICLE_UID, CATEGORY_UID } from './constants';
import type { ArticleData } from './services/article-defaults';
import { getService } from './utils/get-service';

/** Document actions after which what the public reads show may differ. */
const PUBLICATION_CHANGES = new Set(['create', 'update', 'delete', 'publish', 'unpublish', 'discardDraft']);
const UPLOAD_FILE_UID = 'plugin::upload.file';

interface DocumentActionContext {
  uid: string;
  action: string;
  params: { documentId?: string; data?: ArticleData };
}

const register = ({ strapi }: { strapi: Core.Strapi }) => {
  const invalidateReads = () => getService(strapi, 'read-cache').invalidate();

  // One middleware for every path that writes articles (this plugin's POST, the admin, scripts):
  // the defaults are applied before each create and update; after every publish, unpublish, edit
  // and delete the plugin's lookup tables follow and the remembered reads are dropped. Both run
  // once the Document Service has committed, so no read can remember the state before the write.
  strapi.documents.use(async (context, next) => {
    const ctx = context as unknown as DocumentActionContext;
    if (!PUBLICATION_CHANGES.has(ctx.action)) return next();
    if (ctx.uid === CATEGORY_UID) {
      try {
        return await next();
      } finally {
        invalidateReads();
      }
    }
    if (ctx.uid !== ARTICLE_UID) return next();

    if (ctx.action === 'create' || ctx.action === 'update') {
      await getService(strapi, 'article-defaults').apply(ctx.action, ctx.params);
    }
    try {
      const result = await next();
      const documentId = ctx.params.documentId ?? (result as { documentId?: string } | null)?.documentId;
      if (documentId) {
        await getService(strapi, 'article-index').syncDocument(documentId);
        if (ctx.action === 'delete') await getService(strapi, 'article-views').forget(documentId);
      }
      return result;
    } finally {
      invalidateReads();
    }
  });

  // Cover and gallery URLs come from the Media Library, whose files are written without the Document Service.
  strapi.db.lifecycles.subscribe({
    models: [UPLOAD_FILE_UID],
    afterUpdate: invalidateReads,
    afterUpdateMany: invalidateReads,
    afterDelete: invalidateReads,
    afterDeleteMany: invalidateReads,
  });
};

export default register;
