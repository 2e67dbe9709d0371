import type { Context } from 'koa';

const READ_METHODS = new Set(['GET', 'HEAD']);

/** The method a request asks for: its own, or for a CORS preflight the one it announces. */
function requestedMethod(ctx: Context): string {
  return ctx.method === 'OPTIONS' ? ctx.get('Access-Control-Request-Method').toUpperCase() : ctx.method;
}

/**
 * The origins strapi::cors may answer for this request. Public reads under /api are open to every
 * site; anything else (posts, the admin's API) only to the origins listed in CORS_ORIGINS, none by
 * default, so a page on another site can never make a browser write here.
 */
export function corsOrigins(allowedOrigins: string[]): (ctx: Context) => string[] {
  return (ctx) => (READ_METHODS.has(requestedMethod(ctx)) && ctx.path.startsWith('/api/') ? ['*'] : allowedOrigins);
}

export function parseOrigins(list: string): string[] {
  return list
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter((origin) => origin !== '');
}
