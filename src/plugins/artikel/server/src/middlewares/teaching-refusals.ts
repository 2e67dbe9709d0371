import type { Core } from '@strapi/strapi';
import { routePath } from '../utils/route-path';

type Context = Parameters<Core.MiddlewareHandler>[0];

const STUDIO_API = /^\/api\/artikel(\/|$)/;
// The reads of what a token may change: an article as it stands, its revisions.
const NEEDS_UPDATE = /^\/api\/artikel\/[^/]+\/(current|revisions)(\/|$)/;

/** Which of the studio's token actions a request to /api/artikel needs. */
function neededAction(method: string, path: string): 'create' | 'update' | 'delete' | null {
  if (NEEDS_UPDATE.test(path)) return 'update';
  if (method === 'POST') return 'create';
  if (method === 'PATCH') return 'update';
  if (method === 'DELETE') return 'delete';
  return null;
}

interface ErrorBody {
  error?: { message?: unknown };
}

/**
 * Strapi's own refusals under /api/artikel, made to teach: the bare "Forbidden" its authorization
 * answers a token whose scope lacks the route's action names the action and how to get a token
 * that holds it, and the router's plain-text 405 becomes the contract's JSON error, keeping its
 * Allow header. Both are answers Strapi sets (not errors it throws), so they are rewritten after.
 */
const teachingRefusals = (): Core.MiddlewareHandler => async (ctx: Context, next) => {
  const path = routePath(ctx.path);
  if (!STUDIO_API.test(path)) return next();
  await next();
  const action = neededAction(ctx.method, path);
  if (ctx.status === 403 && action !== null && (ctx.body as ErrorBody | null)?.error?.message === 'Forbidden') {
    const message = `This API token may not ${action} articles (${ctx.method} needs the artikel.${action} permission): use a full-access token, or one made with ARTIKEL_TOKEN_ACTIONS=${action} npm run -s token, or give the token artikel.${action} in Settings → API Tokens`;
    ctx.status = 403;
    ctx.body = {
      data: null,
      error: { status: 403, name: 'ForbiddenError', message, details: { permission: `plugin::artikel.artikel.${action}` } },
    };
  }
  if (ctx.status === 405) {
    const allowed = String(ctx.response.get('Allow') || '');
    const message = `${ctx.method} is not allowed here${allowed ? `: this path takes ${allowed}` : ''}`;
    ctx.status = 405;
    ctx.body = { data: null, error: { status: 405, name: 'MethodNotAllowedError', message, details: {} } };
    if (allowed) ctx.set('Allow', allowed);
  }
};

export default teachingRefusals;
