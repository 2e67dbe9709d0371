import type { Core } from '@strapi/strapi';
import { postRateLimiter } from '../repositories/rate-limits';
import { WINDOW_SECONDS, addressKey, tooManyWrites } from './post-rate-limit';
import { getConfig } from '../infrastructure/get-service';
import { isStudioApiPath, routePath } from '../utils/route-path';

type Context = Parameters<Core.MiddlewareHandler>[0];

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const statusOf = (error: unknown): unknown => (error as { status?: unknown } | null)?.status;

/**
 * Failed authentications count against the client address, as writes do (post-rate-limit.ts runs
 * only once a token is accepted): a write refused with a 401 uses one of the address's points, and
 * an address without points left gets a 429 before its token is even looked at. Guessing tokens
 * from one address is thereby as slow as writing.
 */
const failedAuthentications = (_config: unknown, { strapi }: { strapi: Core.Strapi }): Core.MiddlewareHandler => {
  const postsPerMinute = getConfig(strapi, 'postsPerMinute');
  if (postsPerMinute === 0) return (_ctx, next) => next();
  const limiter = postRateLimiter(strapi, postsPerMinute, WINDOW_SECONDS);
  const countFailure = (ctx: Context) =>
    limiter.consume(addressKey(ctx)).then(
      () => undefined,
      () => undefined,
    );

  return async (ctx: Context, next) => {
    if (!WRITES.has(ctx.method) || !isStudioApiPath(routePath(ctx.path))) return next();
    const counted = await limiter.get(addressKey(ctx));
    if (counted !== null && counted.remainingPoints <= 0) throw tooManyWrites(ctx, postsPerMinute, [counted]);
    try {
      await next();
    } catch (error) {
      if (statusOf(error) === 401) await countFailure(ctx);
      throw error;
    }
    if (ctx.status === 401) await countFailure(ctx);
  };
};

export default failedAuthentications;
