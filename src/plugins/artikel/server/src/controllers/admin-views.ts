import type { Core } from '@strapi/strapi';
import { getService } from '../infrastructure/get-service';

type Context = { params: Record<string, string>; body: unknown };

/** The view count of an article for the admin's edit view (read-only: nothing here writes). */
const adminViewsController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async findOne(ctx: Context) {
    const { documentId } = ctx.params;
    ctx.body = { data: { document_id: documentId, views: await getService(strapi, 'article-views').currentViews(documentId) } };
  },

  /** The most read published articles, for the admin home page's widget (see article-reads.mostRead). */
  async mostRead(ctx: Context) {
    ctx.body = { data: await getService(strapi, 'article-reads').mostRead() };
  },
});

export default adminViewsController;
