import type { Core } from '@strapi/strapi';
import { articleTag, representationTag } from '../presenters/representation-tag';
import { getConfig } from '../infrastructure/get-service';
import { ifNoneMatchHolds } from '../utils/entity-tags';

/** How a route's answers may be kept: `shared` (lists, categories, latest) or `revalidate` (an article: each view must reach the service). */
export interface HttpCachingConfig {
  policy: 'shared' | 'revalidate';
}

type Context = Parameters<Core.MiddlewareHandler>[0];

/** An object or array the route answers as JSON (not a Buffer or a stream, which Koa sends as they are). */
const isJsonValue = (body: unknown): body is object =>
  Array.isArray(body) || (typeof body === 'object' && body !== null && Object.getPrototypeOf(body) === Object.prototype);

/**
 * Validators and cache lifetimes for the public reads. Every 200 gets a strong ETag; a request whose
 * If-None-Match holds the current tag gets a 304 without a body (the route's work, a counted view
 * included, has been done). Shared answers may be kept `cacheMaxAge` seconds and served stale for
 * `cacheStaleSeconds` more while revalidating; an article is `no-cache`, so a cache asks the service
 * at every view. A write changes the answers, so their tags, at once.
 */
const httpCaching = (config: HttpCachingConfig, { strapi }: { strapi: Core.Strapi }): Core.MiddlewareHandler => {
  const maxAge = getConfig(strapi, 'cacheMaxAge');
  const stale = getConfig(strapi, 'cacheStaleSeconds');
  const cacheControl =
    config.policy === 'revalidate' || maxAge === 0
      ? 'public, no-cache'
      : `public, max-age=${maxAge}${stale > 0 ? `, stale-while-revalidate=${stale}` : ''}`;

  return async (ctx: Context, next) => {
    await next();
    if (ctx.status !== 200) return;
    // A JSON answer is serialized once, here, for both the tag and the sending (Koa would serialize
    // the object again). Its Content-Type was set when the object was assigned, and stays.
    const json = isJsonValue(ctx.body);
    if (json) ctx.body = JSON.stringify(ctx.body);
    if (typeof ctx.body !== 'string') return;
    // An article's answer is tagged with its version too, which If-Match on its writes compares.
    const version = (ctx.state as { articleVersion?: string }).articleVersion;
    const etag = json && version !== undefined ? articleTag(version, ctx.body) : representationTag(ctx.body, json ? 'json' : 'text');
    ctx.set('ETag', etag);
    ctx.set('Cache-Control', cacheControl);
    // Not Koa's ctx.fresh, which answers 200 whenever the request says Cache-Control: no-cache (as
    // fetch() does on every conditional request): see ifNoneMatchHolds.
    if (ifNoneMatchHolds(ctx.get('If-None-Match') || undefined, etag)) {
      ctx.status = 304;
      ctx.body = null;
    }
  };
};

export default httpCaching;
