'use strict';

// Loads the app's Strapi for a command (no HTTP server), compiling it first only when dist/ is older
// than the sources. Used by the token, photo and bucket commands.
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

/** The folder of the compiled app, compiling it first when the sources changed; `progress` tells which. */
async function compiledApp(progress) {
  // The test suites' own build (tests/helpers/global-setup.ts): used as it is, dist/ left alone.
  if (process.env.ARTIKEL_DIST_DIR) {
    progress(`using the build in ${process.env.ARTIKEL_DIST_DIR}`);
    return process.env.ARTIKEL_DIST_DIR;
  }
  if (buildIsCurrent(APP_DIR)) {
    progress('using the current build in dist/');
    return path.join(APP_DIR, 'dist');
  }
  progress('compiling the app (dist/ is older than the sources)');
  return (await compileStrapi({ appDir: APP_DIR })).distDir;
}

/**
 * The loaded Strapi, on the configured database (no HTTP server); `progress` hears each step. Call
 * strapi.destroy() when done. `distDir`: an app compiledApp already gave.
 */
async function loadStrapi(progress, distDir) {
  const folder = distDir ?? (await compiledApp(progress));
  progress('loading Strapi on the configured database (no HTTP server is started)');
  return createStrapi({ appDir: APP_DIR, distDir: folder, logLevel: 'error' }).load();
}

/** A progress printer on stderr, each line with the seconds since the command started. */
function progressPrinter() {
  const started = Date.now();
  return (step) => process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${step}\n`);
}

/**
 * Runs a command's `main` and exits: with the exit code it set (0 by default), or with the error's
 * exitCode (2 for a usage error), else 1, and only the error's message (no stack) when it failed. Exiting ends whatever Strapi left running.
 */
function runCommand(main) {
  main().then(
    () => process.exit(process.exitCode ?? 0),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      // A usage error (scripts/lib/command-line.js) exits 2, every other failure 1.
      process.exit(typeof error?.exitCode === 'number' ? error.exitCode : 1);
    },
  );
}

/**
 * Whether npm's own banner lines would spoil the capture of what the command prints: run as the
 * npm script `script` without -s (--silent), with stdout captured (TOKEN=$(npm run token)). Then it
 * says so on stderr with the command to type instead (`asTyped`, its -s included), sets exit code 2, and answers true.
 */
function refuseNpmBanner(script, asTyped) {
  if (process.env.npm_lifecycle_event !== script || process.env.npm_config_loglevel === 'silent' || process.stdout.isTTY) return false;
  process.stderr.write(`npm writes its own lines before the token: run it as ${asTyped}\n`);
  process.exitCode = 2;
  return true;
}

module.exports = { compiledApp, loadStrapi, progressPrinter, refuseNpmBanner, runCommand };
