import zlib from 'node:zlib';
import type { Core } from '@strapi/strapi';
import { CSP_DEFAULTS } from '@strapi/utils';
import { corsOrigins, parseOrigins } from '../src/cors';
import { objectStorageFromEnv, objectStorageOrigins } from '../src/object-storage';

const middlewaresConfig = ({ env }: Core.Config.Shared.ConfigParams): Core.Config.Middlewares => {
  const bodyLimit = env('REQUEST_BODY_LIMIT', '1mb');
  // With uploads in object storage the admin's Media Library shows images from the store's origin.
  const objectStorage = objectStorageFromEnv(env);
  const storeOrigins = objectStorage === null ? [] : objectStorageOrigins(objectStorage);
  return [
    'strapi::logger',
    'strapi::errors',
    // /llms.txt at the root, where agents look, answered by /api/artikel/llms.txt.
    'plugin::artikel.root-aliases',
    // A transfer pushed into this instance writes behind every hook: its connection is watched instead.
    'plugin::artikel.data-transfer-watch',
    // gzip or brotli by Accept-Encoding, above 1 KB; brotli at quality 4, since every answer is
    // compressed as it is sent (quality 11 costs tens of milliseconds per list).
    {
      name: 'strapi::compression',
      config: { threshold: 1024, deflate: false, br: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } } },
    },
    storeOrigins.length === 0
      ? 'strapi::security'
      : {
          name: 'strapi::security',
          config: {
            contentSecurityPolicy: {
              useDefaults: true,
              directives: {
                'img-src': [...CSP_DEFAULTS['img-src'], ...storeOrigins],
                'media-src': [...CSP_DEFAULTS['media-src'], ...storeOrigins],
              },
            },
          },
        },
    {
      name: 'strapi::cors',
      config: {
        origin: corsOrigins(parseOrigins(env('CORS_ORIGINS', ''))),
        // Credentials travel in the Authorization header, never in cookies a browser would attach.
        credentials: false,
      },
    },
    'strapi::poweredBy',
    // Files under /uploads/ can never run script on this origin; a refused upload type names the allowed ones.
    'plugin::artikel.uploaded-file-headers',
    // Strapi's bare 403 of a token's scope and the router's text 405 under /api/artikel, made to teach.
    'plugin::artikel.teaching-refusals',
    'strapi::query',
    // Before any route: a read-only API token reads /api/artikel only.
    'plugin::artikel.read-only-tokens',
    // Failed authentications on the studio's writes count against the client address.
    'plugin::artikel.failed-authentications',
    // Just before the body parser, whose errors it turns into the contract's 400 and 413.
    { name: 'plugin::artikel.request-body-errors', config: { limit: bodyLimit } },
    { name: 'strapi::body', config: { jsonLimit: bodyLimit, formLimit: bodyLimit, textLimit: bodyLimit } },
    'strapi::session',
    'strapi::favicon',
    'strapi::public',
  ];
};

export default middlewaresConfig;
