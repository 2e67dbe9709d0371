import type { Core } from '@strapi/strapi';
import { objectStorageFromEnv, uploadPluginConfig } from '../src/object-storage';
import { secret } from '../src/secrets';
import { uploadTypesFromEnv } from '../src/upload-types';

const pluginsConfig = ({ env }: Core.Config.Shared.ConfigParams): Core.Config.Plugin => {
  // Uploads go to S3-compatible object storage when S3_BUCKET is set (docs/operations.md), else to public/uploads.
  const objectStorage = objectStorageFromEnv(env);
  // Photos only: no stored file can be a script, a page or an SVG on the admin's origin.
  const security = uploadTypesFromEnv(env);
  return {
    upload: { config: { ...(objectStorage === null ? {} : uploadPluginConfig(objectStorage)), security } },
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
