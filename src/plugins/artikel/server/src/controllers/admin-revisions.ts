import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { ARTICLE_UID } from '../constants';
import { getConfig, getService } from '../infrastructure/get-service';
import { revisionEntryRecord, revisionRecord } from '../presenters/revision-records';
import { currentSlugOf } from '../repositories/slug-rows';
import { validateNoParameters } from '../validation/read-queries';
import { validateNoBody, validateRevisionNumber } from '../validation/revisions';

type Context = {
  params: Record<string, string>;
  query: unknown;
  request: { body?: unknown };
  state: { userAbility?: unknown };
  body: unknown;
  status: number;
  set: (header: string, value: string) => void;
};

type Action = 'read' | 'update' | 'publish';

/** The Content Manager's permission checker, as far as these routes use it. */
interface PermissionChecker {
  cannot: Record<Action, (entity?: object) => boolean>;
}

interface ArticleRow {
  id: number;
  documentId: string;
  createdBy?: { id: number } | null;
}

/**
 * The revisions of an article for the admin's Revisions panel: its list, one revision with its word
 * diff, and a restore. The routes' policies check the Content Manager's permission on Articles as a
 * type; the checks here repeat them on the article itself, since a role's conditions ("is creator")
 * only apply to a document, and a restore of a published article also publishes, which needs the
 * publish permission. Everything else is the services the API's revision routes use.
 */
const adminRevisionsController = ({ strapi }: { strapi: Core.Strapi }) => {
  /** The article's draft row (with its creator, which the conditions read); a 404 when there is none, a 403 when the editor may not do all of `actions` to it. */
  const permittedArticle = async (ctx: Context, documentId: string, actions: Action[]): Promise<ArticleRow> => {
    const row = (await strapi.db.query(ARTICLE_UID).findOne({
      where: { documentId, publishedAt: null },
      select: ['id', 'documentId'],
      populate: { createdBy: { select: ['id'] } },
    })) as ArticleRow | null;
    if (row === null) throw new errors.NotFoundError('No article has this document id');
    const checker = (
      strapi.plugin('content-manager').service('permission-checker') as {
        create: (options: { userAbility: unknown; model: string }) => PermissionChecker;
      }
    ).create({ userAbility: ctx.state.userAbility, model: ARTICLE_UID });
    const refused = actions.find((action) => checker.cannot[action](row));
    // A PolicyError: Strapi's authorization step turns any other ForbiddenError thrown after it into a bare "Forbidden".
    if (refused !== undefined) throw new errors.PolicyError(`Your role may not ${refused} this article in the Content Manager`);
    return row;
  };

  return {
    /** The article's revisions, newest first. */
    async list(ctx: Context) {
      await validateNoParameters(ctx.query);
      const { documentId } = ctx.params;
      await permittedArticle(ctx, documentId, ['read']);
      const entries = await getService(strapi, 'revisions').list(documentId);
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = { data: entries.map(revisionEntryRecord), meta: { keep: getConfig(strapi, 'revisionsKeep') } };
    },

    /** One revision: the article as it kept it, and its word diff of title, summary and content. */
    async findOne(ctx: Context) {
      const number = await validateRevisionNumber(ctx.params.number, ctx.query);
      const { documentId } = ctx.params;
      await permittedArticle(ctx, documentId, ['read']);
      const detail = await getService(strapi, 'revisions').detail(documentId, number);
      if (detail === null) throw new errors.NotFoundError(`The article has no revision ${number}: the list shows those kept`);
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = { data: revisionRecord(detail) };
    },

    /** Gives the article a revision's text again, as the editor: a new revision; a published article stays published. */
    async restore(ctx: Context) {
      const number = await validateRevisionNumber(ctx.params.number, ctx.query);
      validateNoBody(ctx.request.body);
      const { documentId } = ctx.params;
      await permittedArticle(ctx, documentId, ['read', 'update']);
      const published = await strapi.documents(ARTICLE_UID).findOne({ documentId, status: 'published', fields: ['id'] });
      // The restore writes the live version too: only an editor who may publish may change what readers see.
      if (published !== null) await permittedArticle(ctx, documentId, ['publish']);
      const slug = await currentSlugOf(strapi, documentId);
      if (slug === null) throw new errors.NotFoundError('No article has this document id');
      const answer = await getService(strapi, 'article-writes').restore(slug, number, { dryRun: false, keyed: null, ifMatch: null });
      ctx.status = answer.status;
      ctx.body = answer.body;
    },
  };
};

export default adminRevisionsController;
