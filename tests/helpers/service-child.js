'use strict';

// A real service process (crash-safety and restart tests): boots the compiled app on the database the
// environment names (DATABASE_FILENAME, or DATABASE_CLIENT=postgres and DATABASE_NAME), issues a
// full-access API token, listens, and tells the parent where.
const path = require('node:path');
const { createStrapi } = require('@strapi/strapi');

const appDir = path.resolve(__dirname, '..', '..');

(async () => {
  const strapi = await createStrapi({ appDir, distDir: process.env.ARTIKEL_DIST_DIR || path.join(appDir, 'dist') }).load();
  const token = await strapi
    .service('admin::api-token')
    .create({ name: `crash-${process.pid}`, description: '', type: 'full-access', lifespan: null });
  await strapi.listen();
  process.send({ port: strapi.server.httpServer.address().port, token: token.accessKey });
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
