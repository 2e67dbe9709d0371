'use strict';

// Prints a new Strapi API token that may only create articles (POST /api/artikel), for automation
// tools and agents; with ARTIKEL_TOKEN_ACTIONS=create,update,delete it may also change (PATCH) or
// delete (DELETE) them. Usage: [ARTIKEL_TOKEN_ACTIONS=create,update] npm run token -- [name]
const fs = require('node:fs');
const path = require('node:path');
const { compileStrapi, createStrapi } = require('@strapi/strapi');

const ACTIONS = ['create', 'update', 'delete'];

/** The plugin's actions the token holds: create unless ARTIKEL_TOKEN_ACTIONS names others. */
function requestedPermissions() {
  const asked = (process.env.ARTIKEL_TOKEN_ACTIONS || 'create')
    .split(',')
    .map((action) => action.trim())
    .filter(Boolean);
  const unknown = asked.filter((action) => !ACTIONS.includes(action));
  if (unknown.length > 0) throw new Error(`ARTIKEL_TOKEN_ACTIONS may name ${ACTIONS.join(', ')}; not ${unknown.join(', ')}`);
  return asked.map((action) => `plugin::artikel.artikel.${action}`);
}

const started = Date.now();

/** What the command is doing, on stderr: stdout carries only the token, for TOKEN=$(npm run -s token). */
function progress(step) {
  process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${step}\n`);
}

/** Whether the last build is newer than every source file, so compiling again would change nothing. */
function buildIsCurrent(appDir) {
  const buildInfo = path.join(appDir, 'dist', 'tsconfig.tsbuildinfo');
  if (!fs.existsSync(buildInfo)) return false;
  const builtAt = fs.statSync(buildInfo).mtimeMs;
  const newerSource = (folder) =>
    fs.readdirSync(folder, { withFileTypes: true }).some((entry) => {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) return entry.name !== 'admin' && newerSource(full);
      return /\.(ts|js|json)$/.test(entry.name) && fs.statSync(full).mtimeMs > builtAt;
    });
  return !['config', 'src', 'types'].some((folder) => newerSource(path.join(appDir, folder)));
}

async function main() {
  const appDir = path.resolve(__dirname, '..');
  const name = process.argv[2] || `automation-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  const permissions = requestedPermissions();
  let distDir = path.join(appDir, 'dist');
  if (buildIsCurrent(appDir)) {
    progress('using the current build in dist/');
  } else {
    progress('compiling the app (dist/ is older than the sources)');
    ({ distDir } = await compileStrapi({ appDir }));
  }
  progress('loading Strapi on the configured database (no HTTP server is started)');
  const strapi = await createStrapi({ appDir, distDir, logLevel: 'error' }).load();
  try {
    progress(`creating the API token "${name}"`);
    const token = await strapi.service('admin::api-token').create({
      name,
      description: `Created by npm run token: ${permissions.join(', ')}`,
      type: 'custom',
      lifespan: null,
      permissions,
    });
    process.stdout.write(`${token.accessKey}\n`);
    progress(`done: the token above holds ${permissions.join(', ')} and nothing else; it is shown once`);
  } finally {
    await strapi.destroy();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
