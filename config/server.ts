import type { Core } from '@strapi/strapi';
import { secret } from '../src/secrets';

const serverConfig = ({ env }: Core.Config.Shared.ConfigParams): Core.Config.Server => ({
  host: env('HOST', '0.0.0.0'),
  port: env.int('PORT', 1337),
  url: env('PUBLIC_URL', ''),
  proxy: { koa: env.bool('TRUST_PROXY', false) },
  app: {
    keys: secret('APP_KEYS').split(','),
  },
  // The update check calls a remote registry at every start; this service must boot offline.
  logger: { updates: { enabled: false }, startup: { enabled: false } },
});

export default serverConfig;
