import type { Core } from '@strapi/strapi';
import { endBootTurn, serializeBootOnPostgres } from './boot-lock';
import { handleClientError } from './http-client-errors';

export default {
  register({ strapi }: { strapi: Core.Strapi }) {
    // With a listener attached Node no longer answers these itself (an empty 400 or 431).
    strapi.server.httpServer.on('clientError', handleClientError);
    serializeBootOnPostgres(strapi);
  },
  // The app's bootstrap runs after every plugin's: the start is complete.
  async bootstrap() {
    await endBootTurn();
  },
};
