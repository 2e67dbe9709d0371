import type { Core } from '@strapi/strapi';
import { corsOrigins, parseOrigins } from '../src/cors';

const middlewaresConfig = ({ env }: Core.Config.Shared.ConfigParams): Core.Config.Middlewares => {
  const bodyLimit = env('REQUEST_BODY_LIMIT', '1mb');
  return [
    'strapi::logger',
    'strapi::errors',
    // A transfer pushed into this instance writes behind every hook: its connection is watched instead.
    'plugin::artikel.data-transfer-watch',
    'strapi::security',
    {
      name: 'strapi::cors',
      config: {
        origin: corsOrigins(parseOrigins(env('CORS_ORIGINS', ''))),
        // Credentials travel in the Authorization header, never in cookies a browser would attach.
        credentials: false,
      },
    },
    'strapi::poweredBy',
    'strapi::query',
    // Just before the body parser, whose errors it turns into the contract's 400 and 413.
    { name: 'plugin::artikel.request-body-errors', config: { limit: bodyLimit } },
    { name: 'strapi::body', config: { jsonLimit: bodyLimit, formLimit: bodyLimit, textLimit: bodyLimit } },
    'strapi::session',
    'strapi::favicon',
    'strapi::public',
  ];
};

export default middlewaresConfig;
