import type { Core } from '@strapi/strapi';
import { getService } from '../utils/get-service';
import { linkHeader, pagingLinks } from '../utils/paging-links';
import { validateCreateArticle } from '../validation/create-article';
import { validateCreateQuery, validateListQuery, validateNoParameters, validateSlug } from '../validation/read-queries';

interface Context {
  query: unknown;
  origin: string;
  path: string;
  querystring: string;
  params: Record<string, string>;
  request: { body?: unknown };
  body: unknown;
  status: number;
  set: (header: string, value: string) => void;
}

const artikelController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async find(ctx: Context) {
    const query = await validateListQuery(ctx.query);
    const list = await getService(strapi, 'article-reads').list(query);
    // Absolute, on the public address when one is configured (PUBLIC_URL), so a client can follow them as they are.
    const base = (strapi.config.get('server.url') as string | undefined) || ctx.origin;
    const links = pagingLinks(new URL(`${ctx.path}${ctx.querystring ? `?${ctx.querystring}` : ''}`, base), list.meta.pagination.page, list.meta.pagination.page_count);
    const header = linkHeader(links);
    if (header !== null) ctx.set('Link', header);
    ctx.body = { ...list, links };
  },

  async findOne(ctx: Context) {
    await validateNoParameters(ctx.query);
    const slug = await validateSlug(ctx.params.slug);
    ctx.body = { data: await getService(strapi, 'article-reads').readBySlug(slug) };
  },

  async categories(ctx: Context) {
    await validateNoParameters(ctx.query);
    ctx.body = { data: await getService(strapi, 'article-reads').categories() };
  },

  async create(ctx: Context) {
    const { dryRun } = await validateCreateQuery(ctx.query);
    const input = await validateCreateArticle(ctx.request.body);
    if (dryRun) {
      ctx.body = { data: await getService(strapi, 'article-writes').dryRun(input), meta: { dry_run: true } };
      return;
    }
    const article = await getService(strapi, 'article-writes').create(input);
    ctx.status = 201;
    ctx.set('Location', `/api/artikel/${encodeURIComponent(article.slug)}`);
    ctx.body = { data: article };
  },

  async preview(ctx: Context) {
    await validateNoParameters(ctx.query);
    const draft = await getService(strapi, 'preview').draftFor(ctx.params.token);
    // A draft is for the one who holds the link: kept out of caches and search engines.
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Robots-Tag', 'noindex');
    ctx.body = { data: draft };
  },

  async latest(ctx: Context) {
    await validateNoParameters(ctx.query);
    ctx.body = { data: await getService(strapi, 'article-reads').latest() };
  },
});

export default artikelController;
