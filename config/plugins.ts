import type { Core } from '@strapi/strapi';
import { secret } from '../src/secrets';

const pluginsConfig = (): Core.Config.Plugin => ({
  'users-permissions': {
    config: {
      jwtSecret: secret('JWT_SECRET'),
    },
  },
  artikel: {
    enabled: true,
    resolve: './src/plugins/artikel',
  },
});

export default pluginsConfig;
