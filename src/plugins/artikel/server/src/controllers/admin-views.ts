import type { Core } from '@strapi/strapi';
import { adminActor, commands } from '../commands';
import { getService } from '../infrastructure/get-service';

type Context = { params: Record<string, string>; body: unknown; state: { userAbility?: unknown; user?: { id: number | string } } };

/** The view count of an article for the admin's edit view (read-only: nothing here writes). */
const adminViewsController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async findOne(ctx: Context) {
    const { documentId } = ctx.params;
    ctx.body = { data: { document_id: documentId, views: await getService(strapi, 'article-views').currentViews(documentId) } };
  },

  /** The most read published articles the editor may open, for the admin home page's widget (see drafts.mostRead). */
  async mostRead(ctx: Context) {
    ctx.body = { data: await commands(strapi).drafts.mostRead(adminActor(ctx.state.userAbility, ctx.state.user, 'admin')) };
  },
});

export default adminViewsController;
