import type { Context, MiddlewareFactory } from './types';

// A preview link's token reads a draft: the path segment after /preview/ is kept out of the log.
const PREVIEW_TOKEN = /^(\/api\/artikel\/preview\/)[^/?]+/;
// Query parameters that carry credentials (Strapi's registration, confirmation and reset links, tokens).
const SECRET_PARAMETER = /token|secret|password|confirmation|code|key/i;

/** The request's URL as the log keeps it: credentials in its path or query replaced by "[redacted]". */
export function loggedUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = (queryAt === -1 ? url : url.slice(0, queryAt)).replace(PREVIEW_TOKEN, '$1[redacted]');
  if (queryAt === -1) return path;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      return equals !== -1 && SECRET_PARAMETER.test(pair.slice(0, equals)) ? `${pair.slice(0, equals)}=[redacted]` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

/**
 * strapi::logger's request line, kept out of the log where it holds a credential (see loggedUrl:
 * Strapi's own prints the URL whole, a draft's preview token with it), and built only for the
 * requests whose line the log keeps. Winston filters a line by level only in its transports,
 * after it has built the line, stamped its time and piped it through its streams: at LOG_LEVEL
 * warn (the benchmark's, a quiet production's) that was 3.6 % of an uncached latest's CPU time,
 * for a line nobody sees. The level is asked on every request, so a level changed at run time
 * still takes effect.
 */
export const requestLineWhenKept =
  (_strapiLogger: MiddlewareFactory): MiddlewareFactory =>
  (_config, context) => {
    const log = context.strapi.log;
    return async (ctx: Context, next) => {
      if (!log.isLevelEnabled('http')) return next();
      const started = Date.now();
      await next();
      log.http(`${ctx.method} ${loggedUrl(ctx.url)} (${Math.ceil(Date.now() - started)} ms) ${ctx.status}`);
    };
  };
