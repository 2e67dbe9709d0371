import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { routePath } from '../utils/route-path';

type Context = Parameters<Core.MiddlewareHandler>[0];

/**
 * What a stored file may do when a browser opens it: nothing. Every answer under /uploads/ (the
 * local provider's files; with object storage the bucket serves them) carries a policy that
 * forbids script, plugins, forms and frames in a sandbox, and nosniff, so even a file that got
 * past the type check cannot run on the origin that serves the admin. Paths are compared as
 * Strapi's router and the static server match them (any case).
 */
const FILE_POLICY = "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox";
const UPLOADS = /^\/uploads\//;
// Strapi's message for a refused type; the list it was checked against is added.
const TYPE_REFUSED = /^File type '([^']{0,200})' is not allowed$/;

const uploadedFileHeaders = (_config: unknown, { strapi }: { strapi: Core.Strapi }): Core.MiddlewareHandler => {
  const allowedTypes = (): string[] => (strapi.config.get('plugin::upload.security.allowedTypes') as string[] | undefined) ?? [];
  return async (ctx: Context, next) => {
    if (UPLOADS.test(routePath(ctx.path))) {
      await next();
      ctx.set('Content-Security-Policy', FILE_POLICY);
      ctx.set('X-Content-Type-Options', 'nosniff');
      return;
    }
    try {
      await next();
    } catch (error) {
      const refused = error instanceof errors.ValidationError ? TYPE_REFUSED.exec(error.message) : null;
      if (refused === null) throw error;
      const message = `File type '${refused[1]}' is not allowed: the Media Library takes photos only (${allowedTypes().join(', ')}); SVG files are refused since they can carry script`;
      throw new errors.ValidationError(message, { errors: [{ path: ['files'], message, name: 'ValidationError' }] });
    }
  };
};

export default uploadedFileHeaders;
