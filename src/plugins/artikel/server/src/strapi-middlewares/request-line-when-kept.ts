import type { Context, MiddlewareFactory } from './types';

/**
 * strapi::logger for the requests whose line the log keeps. Winston filters a line by level only
 * in its transports, after it has built the line, stamped its time and piped it through its
 * streams: at LOG_LEVEL warn (the benchmark's, a quiet production's) that was 3.6 % of an uncached
 * latest's CPU time, for a line nobody sees. The level is asked on every request, so a level
 * changed at run time still takes effect.
 */
export const requestLineWhenKept =
  (strapiLogger: MiddlewareFactory): MiddlewareFactory =>
  (config, context) => {
    const logRequest = strapiLogger(config, context);
    const log = context.strapi.log;
    return (ctx: Context, next) => (log.isLevelEnabled('http') ? logRequest(ctx, next) : next());
  };
