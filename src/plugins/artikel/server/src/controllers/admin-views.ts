import type { Core } from '@strapi/strapi';
import type { AdminAnswers } from '../../../shared/admin-api';
import { adminActor, commands } from '../commands';
import { getService } from '../infrastructure/get-service';

type Context = { params: Record<string, string>; body: unknown; state: { userAbility?: unknown; user?: { id: number | string } } };

/** The view count of an article for the admin's edit view (read-only: nothing here writes). */
const adminViewsController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async findOne(ctx: Context) {
    const { documentId } = ctx.params;
    const views = await getService(strapi, 'article-views').currentViews(documentId);
    ctx.body = { data: { document_id: documentId, views } } satisfies AdminAnswers['views'];
  },

  /** The most read published articles the editor may open, for the admin home page's widget (see drafts.mostRead). */
  async mostRead(ctx: Context) {
    const rows = await commands(strapi).drafts.mostRead(adminActor(ctx.state.userAbility, ctx.state.user, 'admin'));
    ctx.body = { data: rows } satisfies AdminAnswers['mostRead'];
  },
});

export default adminViewsController;
