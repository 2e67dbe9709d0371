import type { Core } from '@strapi/strapi';
import { getService } from '../utils/get-service';
import { validateListQuery, validateNoParameters } from '../validation/read-queries';

type Context = { query: unknown; params: Record<string, string>; body: unknown };

const artikelController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async find(ctx: Context) {
    const query = await validateListQuery(ctx.query);
    ctx.body = await getService(strapi, 'article-reads').list(query);
  },

  async findOne(ctx: Context) {
    await validateNoParameters(ctx.query);
    ctx.body = { data: await getService(strapi, 'article-reads').readBySlug(ctx.params.slug) };
  },

  async categories(ctx: Context) {
    await validateNoParameters(ctx.query);
    ctx.body = { data: await getService(strapi, 'article-reads').categories() };
  },

  async latest(ctx: Context) {
    await validateNoParameters(ctx.query);
    ctx.body = { data: await getService(strapi, 'article-reads').latest() };
  },
});

export default artikelController;
