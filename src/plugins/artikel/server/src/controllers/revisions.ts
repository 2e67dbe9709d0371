import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { apiTokenActor, commands } from '../commands';
import { getConfig, getService } from '../infrastructure/get-service';
import { revisionEntryRecord, revisionRecord } from '../presenters/revision-records';
import { validateNoBody, validateRevisionRead } from '../validation/revisions';
import { validateCreateQuery, validateNoParameters, validateSlug } from '../validation/read-queries';
import { type Context, respondWith, writeHeaders } from './http';

/** An article's revisions, for API tokens that may update it (the reads and the restore are commands' too). */
const revisionsController = ({ strapi }: { strapi: Core.Strapi }) => ({
  /**
   * The article as it stands now, whatever its status (draft and scheduled too), with the ETag its
   * writes' If-Match takes, for a token that may update it (an n8n step before a PATCH): counts no
   * view, and is never kept by a cache.
   */
  async current(ctx: Context) {
    await validateNoParameters(ctx.query);
    const slug = await validateSlug(ctx.params.slug);
    const { article, etag } = await commands(strapi).drafts.bySlug(apiTokenActor(ctx.state.auth?.credentials), slug);
    ctx.set('Cache-Control', 'private, no-store');
    if (etag !== null) ctx.set('ETag', etag);
    ctx.body = { data: article };
  },

  /** The revisions of an article, newest first (a token that may update). */
  async revisions(ctx: Context) {
    await validateNoParameters(ctx.query);
    const slug = await validateSlug(ctx.params.slug);
    const documentId = await commands(strapi).drafts.documentAt(apiTokenActor(ctx.state.auth?.credentials), slug);
    const entries = await getService(strapi, 'revisions').list(documentId);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = { data: entries.map(revisionEntryRecord), meta: { keep: getConfig(strapi, 'revisionsKeep') } };
  },

  /** One revision: the article as it was, and what that write changed. */
  async revision(ctx: Context) {
    const { number, against } = await validateRevisionRead(ctx.params.number, ctx.query);
    const slug = await validateSlug(ctx.params.slug);
    const documentId = await commands(strapi).drafts.documentAt(apiTokenActor(ctx.state.auth?.credentials), slug);
    const detail = await getService(strapi, 'revisions').detail(documentId, number, against);
    if (detail === null || 'missing' in detail)
      throw new errors.NotFoundError(
        `The article has no revision ${detail === null ? number : detail.missing}: GET /api/artikel/${slug}/revisions lists those kept`,
      );
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = { data: revisionRecord(detail) };
  },

  /** Gives the article a revision's text again: 200 with the article, like a PATCH. */
  async restoreRevision(ctx: Context) {
    const { dryRun } = await validateCreateQuery(ctx.query);
    validateNoBody(ctx.request.body);
    const actor = apiTokenActor(ctx.state.auth?.credentials);
    const { ifMatch } = writeHeaders(ctx);
    respondWith(ctx, await commands(strapi).articles.restoreRevision(actor, ctx.params.slug, ctx.params.number, { ifMatch, dryRun }));
  },
});

export default revisionsController;
