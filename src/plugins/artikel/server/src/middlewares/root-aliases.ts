import type { Core } from '@strapi/strapi';
import { routePath } from '../utils/route-path';

/**
 * Addresses a convention puts at the site's root, answered by the API's own route: /llms.txt
 * (llmstxt.org), where agents look first, is /api/artikel/llms.txt.
 */
const ALIASES: ReadonlyMap<string, string> = new Map([['/llms.txt', '/api/artikel/llms.txt']]);

const rootAliases = (): Core.MiddlewareHandler => async (ctx, next) => {
  const target = ctx.method === 'GET' || ctx.method === 'HEAD' ? ALIASES.get(routePath(ctx.path)) : undefined;
  if (target !== undefined) ctx.path = target;
  await next();
};

export default rootAliases;
