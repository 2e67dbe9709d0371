import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { PLUGIN_ID } from '../constants';
import { postRateLimiter } from '../repositories/rate-limits';

const WINDOW_SECONDS = 60;

type Context = Parameters<Core.MiddlewareHandler>[0];

/** The API token that authenticated the request; the route runs this after authentication. */
function tokenKey(ctx: Context): string | null {
  const credentials = (ctx.state as { auth?: { credentials?: { id?: number | string } } }).auth?.credentials;
  return credentials?.id === undefined ? null : `token:${credentials.id}`;
}

/**
 * Limits posts per API token and per client address. The address is Koa's `ctx.ip`, which reads
 * X-Forwarded-For only when the server trusts its proxy (TRUST_PROXY), so a spoofed header cannot
 * reset the count. One window per key; on SQLite in this process's memory (lost on restart), on
 * PostgreSQL in a table shared by every instance.
 */
const postRateLimit = (_config: unknown, { strapi }: { strapi: Core.Strapi }): Core.MiddlewareHandler => {
  const postsPerMinute = strapi.plugin(PLUGIN_ID).config('postsPerMinute') as number;
  if (postsPerMinute === 0) return (_ctx, next) => next();
  const limiter = postRateLimiter(strapi, postsPerMinute, WINDOW_SECONDS);

  return async (ctx, next) => {
    const keys = [`address:${ctx.request.ip}`, tokenKey(ctx)].filter((key): key is string => key !== null);
    const refusals = (await Promise.all(keys.map((key) => limiter.consume(key).then(() => null, (refusal: unknown) => refusal)))).filter(
      (refusal): refusal is RateLimiterRes => refusal instanceof RateLimiterRes,
    );
    if (refusals.length > 0) {
      const retryAfter = Math.max(1, ...refusals.map((refusal) => Math.ceil(refusal.msBeforeNext / 1000)));
      ctx.set('Retry-After', String(retryAfter));
      throw new errors.RateLimitError(`Too many posts: at most ${postsPerMinute} per minute per API token and per client address. Retry in ${retryAfter} s.`, {
        retryAfter,
      });
    }
    await next();
  };
};

export default postRateLimit;
