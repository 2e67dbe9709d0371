import type { Context, MiddlewareFactory } from './types';

// The methods koa-body reads a body on (its parsedMethods default, which strapi::body keeps).
const METHODS_WITH_A_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * strapi::body for the requests that carry a body. strapi::body builds koa-body anew on every
 * request, which validates its options each time (a fortieth of an uncached read's time); for any
 * other method koa-body only gives the request an empty body, which this gives it directly. A
 * multipart request of any method still goes to strapi::body, as koa-body treats it apart.
 */
export const bodyParsedWhenSent =
  (strapiBody: MiddlewareFactory): MiddlewareFactory =>
  (config, context) => {
    const parse = strapiBody(config, context);
    return (ctx: Context, next) => {
      if (METHODS_WITH_A_BODY.has(ctx.method) || ctx.is('multipart')) return parse(ctx, next);
      ctx.request.body = {};
      return next();
    };
  };
