'use strict';

// Boots the compiled app once on the database the environment names (DATABASE_FILENAME, or
// DATABASE_CLIENT=postgres and DATABASE_NAME) and stops it: Strapi creates its tables and seeds its
// roles and permissions there, and the test run copies that database for each new test database
// (store.ts) instead of repeating the first boot's schema work on each.
const path = require('node:path');
const { createStrapi } = require('@strapi/strapi');

const appDir = path.resolve(__dirname, '..', '..');

(async () => {
  const strapi = await createStrapi({ appDir, distDir: process.env.ARTIKEL_DIST_DIR || path.join(appDir, 'dist') }).load();
  await strapi.destroy();
  process.exit(0);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
