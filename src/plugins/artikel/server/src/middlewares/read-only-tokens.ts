import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { isStudioApiPath, routePath } from '../utils/route-path';

type Context = Parameters<Core.MiddlewareHandler>[0];

interface ApiTokenService {
  hash(accessKey: string): string;
  getByAccessKey(accessKeyHash: string): Promise<{ type?: string } | null | undefined>;
}

// The content API the studio serves to tokens that may only read; everything else under /api
// (users and their e-mails, roles, the Media Library's files, locales) is Strapi's own.
const CONTENT_API = /^\/api\//;
const BEARER = /^Bearer (\S+)$/i;

/**
 * A read-only API token may call every `find` of the content API in Strapi, users-permissions'
 * users (with their e-mails) and roles and the upload plugin's files included. The studio's
 * read-only tokens read /api/artikel only: on any other /api path such a token is a 403 before
 * the route runs. Tokens are looked up only for requests that need it (a bearer credential
 * outside /api/artikel), which the public site never sends.
 */
const readOnlyTokens = (_config: unknown, { strapi }: { strapi: Core.Strapi }): Core.MiddlewareHandler => {
  const tokens = (): ApiTokenService => strapi.service('admin::api-token-content-api') as unknown as ApiTokenService;
  return async (ctx: Context, next) => {
    const bearer = BEARER.exec(ctx.get('Authorization'));
    const path = routePath(ctx.path);
    if (bearer !== null && CONTENT_API.test(path) && !isStudioApiPath(path)) {
      const token = await tokens().getByAccessKey(tokens().hash(bearer[1]));
      if (token?.type === 'read-only') throw new errors.ForbiddenError('Read-only API tokens read /api/artikel only');
    }
    await next();
  };
};

export default readOnlyTokens;
