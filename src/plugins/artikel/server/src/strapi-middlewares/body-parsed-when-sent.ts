import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { errors } from '@strapi/utils';
import createHttpError from 'http-errors';
import type { Context, MiddlewareFactory } from './types';

// The methods koa-body reads a body on (its parsedMethods default, which strapi::body keeps).
const METHODS_WITH_A_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Where editors and API tokens upload files (the Media Library's routes, admin and content API,
 * and the admin's menu and auth logos in Settings → Overview): the only requests whose multipart
 * bodies are read. Each pattern is anchored and linear.
 */
const UPLOAD_ROUTES: ReadonlyArray<{ method: string; path: RegExp }> = [
  { method: 'POST', path: /^\/upload\/?$/ },
  { method: 'POST', path: /^\/upload\/files\/?$/ },
  { method: 'POST', path: /^\/upload\/files\/[^/]+\/replace\/?$/ },
  { method: 'PUT', path: /^\/upload\/files\/[^/]+\/?$/ },
  { method: 'POST', path: /^\/api\/upload\/?$/ },
  { method: 'POST', path: /^\/admin\/project-settings\/?$/ },
];

const isUploadRoute = (ctx: Context): boolean => UPLOAD_ROUTES.some((route) => route.method === ctx.method && route.path.test(ctx.path));

const BEARER = /^Bearer [^\s]+$/i;

/**
 * strapi::body, limited to what each request may send.
 *
 * - Multipart is read only on the upload routes, and only from a request that carries a bearer
 *   credential (the route itself checks it after the body is read): koa-body writes every file
 *   part to disk before any route or authentication runs, so anywhere else an anonymous client
 *   could fill the disk. Elsewhere a multipart body is refused with a 415 before a byte is read.
 * - The files of an upload go to a folder of the request's own, removed with everything in it
 *   when the request ends, whatever its fields were named and however it ended (strapi::body
 *   removes only a field named `files`).
 * - Requests of the other methods carry no body: strapi::body builds koa-body anew on every
 *   request, which validates its options each time (a fortieth of an uncached read's time); such
 *   a request only gets the empty body koa-body would give it.
 */
export const bodyParsedWhenSent =
  (strapiBody: MiddlewareFactory): MiddlewareFactory =>
  (config, context) => {
    const parse = strapiBody(config, context);
    const formidable = (config as { formidable?: object }).formidable ?? {};

    const parseUpload = async (ctx: Context, next: () => Promise<unknown>): Promise<unknown> => {
      if (!isUploadRoute(ctx)) {
        throw createHttpError(
          415,
          'Multipart bodies are read only by the upload routes (POST /upload, POST /api/upload, POST /admin/project-settings); send JSON here',
          {
            details: {},
          },
        );
      }
      if (!BEARER.test(ctx.get('Authorization'))) throw new errors.UnauthorizedError('Uploading needs an Authorization: Bearer credential');
      const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'artikel-upload-'));
      try {
        return await strapiBody({ ...config, formidable: { ...formidable, uploadDir: folder } }, context)(ctx, next);
      } finally {
        await fs.rm(folder, { recursive: true, force: true });
      }
    };

    return (ctx: Context, next) => {
      if (ctx.is('multipart')) return parseUpload(ctx, next);
      if (METHODS_WITH_A_BODY.has(ctx.method)) return parse(ctx, next);
      ctx.request.body = {};
      return next();
    };
  };
