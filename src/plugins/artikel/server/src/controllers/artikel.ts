import type { Core } from '@strapi/strapi';
import { getService } from '../utils/get-service';
import { validateCreateArticle } from '../validation/create-article';
import { validateListQuery, validateNoParameters, validateSlug } from '../validation/read-queries';

interface Context {
  query: unknown;
  params: Record<string, string>;
  request: { body?: unknown };
  body: unknown;
  status: number;
  set: (header: string, value: string) => void;
}

const artikelController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async find(ctx: Context) {
    const query = await validateListQuery(ctx.query);
    ctx.body = await getService(strapi, 'article-reads').list(query);
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
    await validateNoParameters(ctx.query);
    const input = await validateCreateArticle(ctx.request.body);
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
