import type { Core } from '@strapi/strapi';
import { objectStorageFromEnv, uploadPluginConfig } from '../src/object-storage';
import { secret } from '../src/secrets';

const pluginsConfig = ({ env }: Core.Config.Shared.ConfigParams): Core.Config.Plugin => {
  // Uploads go to S3-compatible object storage when S3_BUCKET is set (docs/operations.md), else to public/uploads.
  const objectStorage = objectStorageFromEnv(env);
  return {
    ...(objectStorage === null ? {} : { upload: { config: uploadPluginConfig(objectStorage) } }),
    'users-permissions': {
      config: {
        jwtSecret: secret('JWT_SECRET'),
      },
    },
    artikel: {
      enabled: true,
      resolve: './src/plugins/artikel',
    },
  };
};

export default pluginsConfig;
