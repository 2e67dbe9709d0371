import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { adminActor, commands } from '../commands';
import { getConfig, getService } from '../infrastructure/get-service';
import type { AdminAnswers } from '../../../shared/admin-api';
import { revisionEntryRecord, revisionRecord } from '../presenters/revision-records';
import { validateNoParameters } from '../validation/read-queries';
import { validateNoBody, validateRevisionNumber, validateRevisionRead } from '../validation/revisions';

type Context = {
  params: Record<string, string>;
  query: unknown;
  request: { body?: unknown };
  state: { userAbility?: unknown; user?: { id: number | string } };
  body: unknown;
  status: number;
  set: (header: string, value: string) => void;
};

/**
 * The revisions of an article for the admin's Revisions panel: its list, one revision with its word
 * diff, and a restore. The routes' policies check the Content Manager's permission on Articles as a
 * type; the commands check it on the article itself, where a role's conditions ("is creator")
 * apply, and a restore of a published article also needs Publish.
 */
const adminRevisionsController = ({ strapi }: { strapi: Core.Strapi }) => {
  const editor = (ctx: Context) => adminActor(ctx.state.userAbility, ctx.state.user, 'admin');
  const permittedArticle = (ctx: Context, documentId: string) => commands(strapi).drafts.readable(editor(ctx), documentId);

  return {
    /** The article's revisions, newest first. */
    async list(ctx: Context) {
      await validateNoParameters(ctx.query);
      const { documentId } = ctx.params;
      await permittedArticle(ctx, documentId);
      const entries = await getService(strapi, 'revisions').list(documentId);
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = {
        data: entries.map(revisionEntryRecord),
        meta: { keep: getConfig(strapi, 'revisionsKeep') },
      } satisfies AdminAnswers['revisions'];
    },

    /** One revision: the article as it kept it, and its word diff of title, summary and content against the one before it or `against`. */
    async findOne(ctx: Context) {
      const { number, against } = await validateRevisionRead(ctx.params.number, ctx.query);
      const { documentId } = ctx.params;
      await permittedArticle(ctx, documentId);
      const detail = await getService(strapi, 'revisions').detail(documentId, number, against);
      if (detail === null || 'missing' in detail)
        throw new errors.NotFoundError(
          `The article has no revision ${detail === null ? number : detail.missing}: the list shows those kept`,
        );
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = { data: revisionRecord(detail) } satisfies AdminAnswers['revision'];
    },

    /** Gives the article a revision's text again, as the editor: a new revision; a published article stays published. */
    async restore(ctx: Context) {
      const number = await validateRevisionNumber(ctx.params.number, ctx.query);
      validateNoBody(ctx.request.body);
      const { documentId } = ctx.params;
      const article = await permittedArticle(ctx, documentId);
      if (article.slug === null) throw new errors.NotFoundError('No article has this document id');
      const answer = await commands(strapi).articles.restoreRevision(editor(ctx), article.slug, String(number));
      ctx.status = answer.status;
      ctx.body = answer.body;
    },
  };
};

export default adminRevisionsController;
