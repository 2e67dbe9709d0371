import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { apiTokenActor, commands } from '../commands';
import { getConfig, getService } from '../infrastructure/get-service';
import { linkHeader, pagingLinks } from '../presenters/links';
import {
  validateCreateQuery,
  validateExportQuery,
  validateArticleQuery,
  validateLatestQuery,
  validateListRequest,
  validateNoParameters,
  validateSlug,
} from '../validation/read-queries';
import { summariesCsv } from '../presenters/other-representations';
import { apiBase, type Context, respondWith, writeHeaders } from './http';

const CSV_TYPE = 'text/csv; charset=utf-8';
const MARKDOWN = 'text/markdown';

/** The articles: the list, one article, the categories, the latest; and the writes of API tokens (each a command). */
const articlesController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async find(ctx: Context) {
    const { query, format } = await validateListRequest(ctx.query);
    const list = await getService(strapi, 'article-reads').list(query);
    // Absolute, on the public address when one is configured (PUBLIC_URL), so a client can follow them as they are.
    const links = pagingLinks(new URL(`${ctx.path}${ctx.querystring ? `?${ctx.querystring}` : ''}`, apiBase(strapi, ctx)), list.paging);
    const header = linkHeader(links);
    if (header !== null) ctx.set('Link', header);
    if (format === 'csv') {
      ctx.set('Content-Type', CSV_TYPE);
      ctx.body = summariesCsv(list.data);
      return;
    }
    ctx.body = { data: list.data, meta: list.meta, links };
  },

  async findOne(ctx: Context) {
    const asked = await validateArticleQuery(ctx.query);
    // Markdown for ?format=md, or for a client whose Accept prefers it to JSON; the answer says it varies by Accept.
    ctx.vary('Accept');
    const markdown = asked === 'md' || (asked === null && ctx.accepts('application/json', MARKDOWN) === MARKDOWN);
    const slug = await validateSlug(ctx.params.slug);
    const reads = getService(strapi, 'article-reads');
    let article;
    try {
      // A HEAD (a link checker, an uptime monitor) is answered like a GET but is no reader: no view.
      article = await reads.readBySlug(slug, { countView: ctx.method !== 'HEAD' });
    } catch (error) {
      if (!(error instanceof errors.NotFoundError)) throw error;
      const current = await reads.movedTo(slug);
      if (current === null) throw error;
      // One hop to where the article is now, counting no view. Not kept by caches: the article can
      // move back, or be deleted and free its old slugs.
      ctx.set('Cache-Control', 'public, no-cache');
      ctx.status = 301;
      ctx.redirect(`/api/artikel/${encodeURIComponent(current)}`);
      return;
    }
    if (markdown) {
      ctx.set('Content-Type', `${MARKDOWN}; charset=utf-8`);
      ctx.body = await reads.markdownOf(article);
      return;
    }
    // The tag's version part is what If-Match on PATCH and DELETE compares (see http-caching).
    ctx.state.articleVersion = (await reads.version(article.id)) ?? undefined;
    ctx.body = { data: article };
  },

  /** Every published article matching q, kategori and tag, newest first, as one CSV (a UTF-8 BOM unless bom=false). */
  async exportCsv(ctx: Context) {
    const { query, bom } = await validateExportQuery(ctx.query);
    const data = await getService(strapi, 'article-reads').exportAll(query, getConfig(strapi, 'exportRows'));
    ctx.set('Content-Type', CSV_TYPE);
    ctx.set('Content-Disposition', 'inline; filename="artikel.csv"');
    ctx.body = summariesCsv(data, { bom });
  },

  async categories(ctx: Context) {
    await validateNoParameters(ctx.query);
    ctx.body = { data: await getService(strapi, 'article-reads').categories() };
  },

  async latest(ctx: Context) {
    const format = await validateLatestQuery(ctx.query);
    const data = await getService(strapi, 'article-reads').latest();
    if (format === 'csv') {
      ctx.set('Content-Type', CSV_TYPE);
      ctx.body = summariesCsv(data);
      return;
    }
    ctx.body = { data };
  },

  async create(ctx: Context) {
    const { dryRun } = await validateCreateQuery(ctx.query);
    const actor = apiTokenActor(ctx.state.auth?.credentials);
    respondWith(ctx, await commands(strapi).articles.create(actor, ctx.request.body, { ...writeHeaders(ctx), dryRun }));
  },

  /** PATCH: changes an article found by its current slug, whatever its status. */
  async update(ctx: Context) {
    const { dryRun } = await validateCreateQuery(ctx.query);
    const actor = apiTokenActor(ctx.state.auth?.credentials);
    respondWith(ctx, await commands(strapi).articles.update(actor, ctx.params.slug, ctx.request.body, { ...writeHeaders(ctx), dryRun }));
  },

  /** DELETE: the article and everything of it; 204. */
  async delete(ctx: Context) {
    await validateNoParameters(ctx.query);
    await commands(strapi).articles.remove(apiTokenActor(ctx.state.auth?.credentials), ctx.params.slug, writeHeaders(ctx));
    ctx.status = 204;
    ctx.body = null;
  },
});

export default articlesController;
