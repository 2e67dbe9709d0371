import { CSP_DEFAULTS } from '@strapi/utils';
import { defaultsDeep } from 'lodash/fp';
import helmet from 'koa-helmet';
import type { Core } from '@strapi/strapi';
import type { Context, MiddlewareFactory } from './types';

/** The helmet options strapi::security uses when the app gives it no config and the request is no exception. */
const STRAPI_SECURITY_DEFAULTS: Parameters<typeof helmet>[0] = {
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  contentSecurityPolicy: { useDefaults: true, directives: { ...CSP_DEFAULTS, upgradeInsecureRequests: null } },
  xssFilter: false,
  hsts: { maxAge: 31536000, includeSubDomains: true },
  frameguard: { action: 'sameorigin' },
};

/**
 * strapi::security, with helmet built once. strapi::security merges its config and builds helmet
 * anew on every request (a twentieth of an uncached read's time), though its headers differ only
 * for its exceptions: GETs of /documentation, the admin panel's GETs in development and test, and
 * every request once the GraphQL plugin is installed. Those still go to strapi::security; the others get its headers from helmet built once with
 * its defaults under the app's config, merged as strapi::security merges them (the app configures it
 * when uploads are in object storage, whose origin the admin's images need; see config/middlewares.ts;
 * tests/api/security-headers.test.ts compares the two).
 */
export const securityHeadersBuiltOnce =
  (strapiSecurity: MiddlewareFactory): MiddlewareFactory =>
  (config, context) => {
    const configured = strapiSecurity(config, context);
    const { strapi } = context;
    if (strapi.plugin('graphql') !== undefined) return configured;
    const builtOnce = helmet(defaultsDeep(STRAPI_SECURITY_DEFAULTS, config)) as unknown as Core.MiddlewareHandler;
    const adminPath = strapi.config.get('admin.path') as string;
    const adminIsException = ['development', 'test'].includes(process.env.NODE_ENV ?? '');
    const isException = (ctx: Context): boolean =>
      ctx.method === 'GET' && (ctx.path.startsWith('/documentation') || (adminIsException && ctx.path.startsWith(adminPath)));
    return (ctx: Context, next) => (isException(ctx) ? configured(ctx, next) : builtOnce(ctx, next));
  };
