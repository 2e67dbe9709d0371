import type { Core } from '@strapi/strapi';
import { getService } from '../infrastructure/get-service';
import { routePath } from '../utils/route-path';

// Where `strapi transfer --to` pushes into this instance (Strapi's data transfer WebSocket).
const PUSH_PATH = /^\/admin\/transfer\/runner\/push$/;

type Context = Parameters<Core.MiddlewareHandler>[0];

/**
 * A data transfer pushed into this running instance writes with Strapi's lifecycle hooks switched
 * off, so the plugin's hooks never see those writes. This watches the transfer's connection
 * instead: when it opens, cached reads are dropped (and other instances told), and when it closes,
 * the index is reconciled and the caches dropped again, as after any write behind the Document Service.
 */
const dataTransferWatch = (_config: unknown, { strapi }: { strapi: Core.Strapi }): Core.MiddlewareHandler => {
  const noticed = () => getService(strapi, 'outside-writes').noticed();
  return async (ctx: Context, next) => {
    if (PUSH_PATH.test(routePath(ctx.path))) {
      noticed();
      ctx.req.socket.once('close', noticed);
    }
    await next();
  };
};

export default dataTransferWatch;
