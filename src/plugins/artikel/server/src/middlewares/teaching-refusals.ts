import type { Core } from '@strapi/strapi';
import { isStudioApiPath, routePath } from '../utils/route-path';

type Context = Parameters<Core.MiddlewareHandler>[0];

interface ErrorBody {
  error?: { message?: unknown };
}

// A permission of the studio's API tokens: plugin::artikel.artikel.<action>.
const TOKEN_PERMISSION = /^plugin::artikel\.artikel\.(create|update|delete)$/;

/**
 * The token permission the matched route asks for: its auth scope (Strapi gives every route one,
 * the handler's action by default; the revisions and /current routes name artikel.update).
 */
function neededPermission(ctx: Context): { permission: string; action: string } | null {
  const scope = (ctx.state as { route?: { config?: { auth?: { scope?: unknown } } } }).route?.config?.auth?.scope;
  for (const permission of Array.isArray(scope) ? scope : []) {
    const action = typeof permission === 'string' ? TOKEN_PERMISSION.exec(permission)?.[1] : undefined;
    if (action !== undefined) return { permission, action };
  }
  return null;
}

/**
 * Strapi's own refusals under /api/artikel, made to teach: the bare "Forbidden" its authorization
 * answers a token whose scope lacks the route's action names the action and how to get a token
 * that holds it, and the router's plain-text 405 becomes the contract's JSON error, keeping its
 * Allow header. Both are answers Strapi sets (not errors it throws), so they are rewritten after.
 */
const teachingRefusals = (): Core.MiddlewareHandler => async (ctx: Context, next) => {
  const path = routePath(ctx.path);
  if (!isStudioApiPath(path)) return next();
  await next();
  const needed = ctx.status === 403 && (ctx.body as ErrorBody | null)?.error?.message === 'Forbidden' ? neededPermission(ctx) : null;
  if (needed !== null) {
    const { action } = needed;
    const message = `This API token may not ${action} articles (${ctx.method} needs the artikel.${action} permission): use a full-access token, or one made with ARTIKEL_TOKEN_ACTIONS=${action} npm run -s token, or give the token artikel.${action} in Settings → API Tokens`;
    ctx.status = 403;
    ctx.body = {
      data: null,
      error: { status: 403, name: 'ForbiddenError', message, details: { permission: needed.permission } },
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
