'use strict';

// Loads the app's Strapi for a command (no HTTP server), compiling it first only when dist/ is older
// than the sources. Used by the token and photo commands.
const fs = require('node:fs');
const path = require('node:path');
const { compileStrapi, createStrapi } = require('@strapi/strapi');

const APP_DIR = path.resolve(__dirname, '..', '..');

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

/** The loaded Strapi, on the configured database; `progress` hears each step. Call strapi.destroy() when done. */
async function loadStrapi(progress) {
  let distDir = path.join(APP_DIR, 'dist');
  if (buildIsCurrent(APP_DIR)) {
    progress('using the current build in dist/');
  } else {
    progress('compiling the app (dist/ is older than the sources)');
    ({ distDir } = await compileStrapi({ appDir: APP_DIR }));
  }
  progress('loading Strapi on the configured database (no HTTP server is started)');
  return createStrapi({ appDir: APP_DIR, distDir, logLevel: 'error' }).load();
}

/** A progress printer on stderr, each line with the seconds since the command started. */
function progressPrinter() {
  const started = Date.now();
  return (step) => process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${step}\n`);
}

module.exports = { loadStrapi, progressPrinter };
