'use strict';

// Prints a new Strapi API token that may only create articles (POST /api/artikel), for automation
// tools and agents. Usage: npm run token -- [name]
const fs = require('node:fs');
const path = require('node:path');
const { compileStrapi, createStrapi } = require('@strapi/strapi');

const CREATE_PERMISSION = 'plugin::artikel.artikel.create';

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
      description: 'Created by npm run token: may only publish articles through POST /api/artikel',
      type: 'custom',
      lifespan: null,
      permissions: [CREATE_PERMISSION],
    });
    process.stdout.write(`${token.accessKey}\n`);
    progress('done: the token above may only POST /api/artikel; it is shown once');
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
