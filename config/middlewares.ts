import type { Core } from '@strapi/strapi';

const middlewaresConfig = ({ env }: Core.Config.Shared.ConfigParams): Core.Config.Middlewares => {
  const bodyLimit = env('REQUEST_BODY_LIMIT', '1mb');
  return [
    'strapi::logger',
    'strapi::errors',
    'strapi::security',
    'strapi::cors',
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
