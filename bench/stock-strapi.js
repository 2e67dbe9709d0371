// @ts-check
'use strict';

// Stock Strapi for the benchmark: THE SAME app (same dist build, same database file) with Strapi's
// own core REST routes added for articles and categories, so /api/artikel can be compared with
// what Strapi serves without the plugin:
//
//   GET /api/articles     (find, findOne)     GET /api/categories     (find)
//   POST /api/articles    (create, which publishes; only with STOCK_WRITES=1, for bench/writes.js,
//                          with a custom API token holding article create and category find, written to
//                          STOCK_TOKEN_FILE: a write is authenticated as ours is, by an API token)
//
// The app deliberately has no routes or controllers for these content types; this launcher adds
// them in memory between register() and bootstrap(). It lives only in bench/ and is only reached by
// running this file with ARTIKEL_BENCHMARK=stock-rest, which bench/run.js does. `npm start` and
// `npm run develop` never load it, so production can never expose these public routes.
//
// The routes are opened the stock way, by the Public role's find permissions (Settings > Roles >
// Public in the admin), not by `auth: false`: without an authenticated ability Strapi 5 silently
// drops populate=category and rejects filters[category], so an `auth: false` stock would do less
// work than a real one. The grant is removed again when the launcher is stopped.

const path = require('node:path');

const REQUIRED_SWITCH = 'stock-rest';

if (process.env.ARTIKEL_BENCHMARK !== REQUIRED_SWITCH) {
  process.stderr.write(
    `bench/stock-strapi.js opens public stock REST routes and is for the benchmark only.\n` +
      `It runs only with ARTIKEL_BENCHMARK=${REQUIRED_SWITCH} (bench/run.js sets it).\n`,
  );
  process.exit(2);
}
if (process.env.HOST !== '127.0.0.1') {
  // The benchmark always binds to loopback; anything else means someone is serving it for real.
  process.stderr.write('bench/stock-strapi.js only listens on HOST=127.0.0.1.\n');
  process.exit(2);
}

const { createStrapi, factories } = require('@strapi/strapi');

const APP_DIR = path.resolve(__dirname, '..');
const ARTICLE_UID = 'api::article.article';
const CATEGORY_UID = 'api::category.category';
const WRITES = process.env.STOCK_WRITES === '1';
const PUBLIC_ACTIONS = ['api::article.article.find', 'api::article.article.findOne', 'api::category.category.find'];
const PERMISSION_UID = 'plugin::users-permissions.permission';

/** What `strapi generate` would have written as routes/, controllers/ and services/ for each type. */
function addStockRest(strapi) {
  for (const uid of /** @type {import('@strapi/strapi').UID.ContentType[]} */ ([ARTICLE_UID, CATEGORY_UID])) {
    strapi.get('services').set(uid, factories.createCoreService(uid));
    strapi.get('controllers').set(uid, factories.createCoreController(uid));
  }
  strapi.api('article').routes = {
    'stock-benchmark': factories.createCoreRouter(ARTICLE_UID, { only: WRITES ? ['find', 'findOne', 'create'] : ['find', 'findOne'] }),
  };
  strapi.api('category').routes = {
    'stock-benchmark': factories.createCoreRouter(CATEGORY_UID, { only: ['find'] }),
  };
}

/** The rows the admin writes when an editor ticks these actions for the Public role; returns the new ids. */
async function grantPublicReads(strapi) {
  const role = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
  if (!role) throw new Error('The users-permissions Public role is missing');
  const created = [];
  for (const action of PUBLIC_ACTIONS) {
    const existing = await strapi.db.query(PERMISSION_UID).findOne({ where: { action, role: role.id } });
    if (!existing) created.push((await strapi.db.query(PERMISSION_UID).create({ data: { action, role: role.id } })).id);
  }
  return created;
}

/**
 * With STOCK_WRITES=1: a custom API token that may create articles, as an automation tool would
 * hold, its access key written to STOCK_TOKEN_FILE; returns its id.
 */
async function writeToken(strapi) {
  const file = process.env.STOCK_TOKEN_FILE;
  if (!file) throw new Error('STOCK_WRITES=1 needs STOCK_TOKEN_FILE, where the write token is written');
  const token = await strapi.service('admin::api-token').create({
    name: `stock-writes-${Date.now()}`,
    description: 'bench/stock-strapi.js',
    type: 'custom',
    lifespan: null,
    // Connecting the category needs its find permission, as it would for any custom token.
    permissions: ['api::article.article.create', 'api::category.category.find'],
  });
  require('node:fs').writeFileSync(file, token.accessKey, { mode: 0o600 });
  return token.id;
}

/** On SIGTERM/SIGINT: take the grant (and the write token) back, so the data file ends as it began. */
function revokeOnStop(strapi, permissionIds, tokenId) {
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    try {
      if (permissionIds.length > 0) await strapi.db.query(PERMISSION_UID).deleteMany({ where: { id: { $in: permissionIds } } });
      if (tokenId !== undefined) await strapi.service('admin::api-token').revoke(tokenId);
      await strapi.destroy();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

async function main() {
  const strapi = createStrapi({ appDir: APP_DIR, distDir: path.join(APP_DIR, 'dist') });
  // Routes are read in bootstrap() (initRouting), controllers and services when a request needs them.
  await strapi.register();
  addStockRest(strapi);
  await strapi.bootstrap();
  const permissionIds = await grantPublicReads(strapi);
  revokeOnStop(strapi, permissionIds, WRITES ? await writeToken(strapi) : undefined);
  await strapi.listen();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
