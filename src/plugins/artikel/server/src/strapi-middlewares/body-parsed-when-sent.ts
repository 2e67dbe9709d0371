import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { errors } from '@strapi/utils';
import createHttpError from 'http-errors';
import type { Context, MiddlewareFactory } from './types';
import { isStudioApiPath, routePath } from '../utils/route-path';
import { tooDeepField } from '../utils/json-depth';
import { quotedText } from '../utils/quoted-text';

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

const isUploadRoute = (ctx: Context): boolean =>
  UPLOAD_ROUTES.some((route) => route.method === ctx.method && route.path.test(routePath(ctx.path)));

const BEARER = /^Bearer [^\s]+$/i;

// How deep a JSON body may nest: the Content Manager's deepest (components in dynamic zones, rich
// text blocks) stay far below; Strapi's own validators recurse and overflow the stack near 10,000.
const BODY_DEPTH_LIMIT = 64;

// Strapi's MCP endpoint: its JSON-RPC bodies may be larger than the API's, so that an agent's
// oversized article is refused by the tool, as a tool error the agent can act on, rather than by
// this parser as an HTTP 413 its client throws (see mcp/tools.ts, ARGUMENTS_LIMIT_BYTES).
const MCP_PATH = /^\/mcp$/;
const MCP_JSON_LIMIT = '4mb';

/** A body-carrying write to /api/artikel that is not JSON (curl's -d sends a form): a 415 naming the header. */
function assertJsonWrite(ctx: Context): void {
  // A restore sends no body (no Content-Length, or 0); type-is answers null without a body.
  if (!isStudioApiPath(routePath(ctx.path)) || ctx.get('Content-Length') === '0' || ctx.is('json') !== false) return;
  const sent = ctx.get('Content-Type') || 'none';
  throw createHttpError(
    415,
    `The body must be JSON: send the header Content-Type: application/json (this request's Content-Type is ${JSON.stringify(sent.slice(0, 100))})`,
    {
      details: {
        errors: [
          { path: ['headers', 'content-type'], message: 'Content-Type must be application/json', name: 'UnsupportedMediaTypeError' },
        ],
      },
    },
  );
}

/** Refuses a JSON body nested past the limit, before any validator walks it. */
function assertShallow(body: unknown): void {
  const field = tooDeepField(body, BODY_DEPTH_LIMIT);
  if (field === null) return;
  const message = `The request body${field.length > 0 ? `'s field ${quotedText(field[0])}` : ''} nests deeper than ${BODY_DEPTH_LIMIT} levels of arrays and objects: send a flatter body`;
  throw new errors.ValidationError(message, { errors: [{ path: field, message, name: 'ValidationError' }] });
}

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
    const parseMcp = strapiBody({ ...config, jsonLimit: MCP_JSON_LIMIT }, context);
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
      if (METHODS_WITH_A_BODY.has(ctx.method)) {
        assertJsonWrite(ctx);
        // The larger limit only for a request that names a credential (an anonymous one is refused anyway).
        const largeMcp = MCP_PATH.test(routePath(ctx.path)) && BEARER.test(ctx.get('Authorization'));
        return (largeMcp ? parseMcp : parse)(ctx, () => {
          assertShallow(ctx.request.body);
          return next();
        });
      }
      ctx.request.body = {};
      return next();
    };
  };
