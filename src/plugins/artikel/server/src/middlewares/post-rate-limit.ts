import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { postRateLimiter } from '../repositories/rate-limits';
import { rateLimitAddress } from '../utils/client-address';
import { tokenKey } from '../utils/token-key';
import { getConfig } from '../infrastructure/get-service';

export const WINDOW_SECONDS = 60;

type Context = Parameters<Core.MiddlewareHandler>[0];

/** The API token that authenticated the request; the route runs this after authentication. */
function requestTokenKey(ctx: Context): string | null {
  const credentials = (ctx.state as { auth?: { credentials?: { id?: number | string } } }).auth?.credentials;
  return credentials?.id === undefined ? null : tokenKey(credentials.id);
}

/** The client address the limit counts (see rateLimitAddress). */
export const addressKey = (ctx: Context): string => `address:${rateLimitAddress(ctx.request.ip)}`;

/** A 429 in the contract's error body, with Retry-After, for refusals of the limiter. */
export function tooManyWrites(ctx: Context, postsPerMinute: number, refusals: RateLimiterRes[]): errors.RateLimitError {
  const retryAfter = Math.max(1, ...refusals.map((refusal) => Math.ceil(refusal.msBeforeNext / 1000)));
  ctx.set('Retry-After', String(retryAfter));
  return new errors.RateLimitError(
    `Too many writes: at most ${postsPerMinute} per minute per API token and per client address, failed authentications included. Retry in ${retryAfter} s.`,
    { retryAfter },
  );
}

/**
 * Limits writes per API token and per client address. The address is Koa's `ctx.ip` (X-Forwarded-For
 * only behind TRUST_PROXY proxies, counted from the right, so a spoofed header cannot reset the
 * count), an IPv6 client by its /64. One window per key; on SQLite in this process's memory (lost on
 * restart), on PostgreSQL in a table shared by every instance. Failed authentications count too
 * (see failed-authentications.ts).
 */
const postRateLimit = (_config: unknown, { strapi }: { strapi: Core.Strapi }): Core.MiddlewareHandler => {
  const postsPerMinute = getConfig(strapi, 'postsPerMinute');
  if (postsPerMinute === 0) return (_ctx, next) => next();
  const limiter = postRateLimiter(strapi, postsPerMinute, WINDOW_SECONDS);

  return async (ctx, next) => {
    const keys = [addressKey(ctx), requestTokenKey(ctx)].filter((key): key is string => key !== null);
    const refusals = (
      await Promise.all(
        keys.map((key) =>
          limiter.consume(key).then(
            () => null,
            (refusal: unknown) => refusal,
          ),
        ),
      )
    ).filter((refusal): refusal is RateLimiterRes => refusal instanceof RateLimiterRes);
    if (refusals.length > 0) throw tooManyWrites(ctx, postsPerMinute, refusals);
    await next();
  };
};

export default postRateLimit;
