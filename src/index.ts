import type { Core } from '@strapi/strapi';
import { endBootTurn, serializeBootOnPostgres } from './boot-lock';
import { handleClientError } from './http-client-errors';
import { objectStorageFromEnv } from './object-storage';
import { startObjectStorage } from './object-storage-check';
import type { ArtikelServices } from './plugins/artikel/server/src/services/types';

type ClosedDefaults = ArtikelServices['closed-defaults'];

export default {
  register({ strapi }: { strapi: Core.Strapi }) {
    // With a listener attached Node no longer answers these itself (an empty 400 or 431).
    strapi.server.httpServer.on('clientError', handleClientError);
    serializeBootOnPostgres(strapi);
  },
  // The app's bootstrap runs after every plugin's (the admin's and users-permissions' included,
  // which open what the studio keeps closed: see the artikel plugin's closed-defaults service).
  async bootstrap({ strapi }: { strapi: Core.Strapi }) {
    try {
      // Uploads in object storage (S3_BUCKET): a store that cannot write, read and delete stops the start here.
      await startObjectStorage(
        strapi,
        objectStorageFromEnv((name, fallback = '') => process.env[name] ?? fallback),
      );
      const closed = strapi.plugin('artikel').service('closed-defaults') as ClosedDefaults;
      await closed.closeRegistration();
      await closed.emptyEndUserRoles();
      const removed = await closed.removeUnaskedTokens();
      if (removed > 0) strapi.log.info(`removed the ${removed} API tokens Strapi made unasked on a new database`);
    } finally {
      // The start is complete.
      await endBootTurn();
    }
  },
};
