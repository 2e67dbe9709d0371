'use strict';

// The compiled app a command-line script loads: dist/ when it is newer than every source file, else
// a fresh compile. Shared by `npm run token` and `npm run uploads:move-to-bucket`.
const fs = require('node:fs');
const path = require('node:path');
const { compileStrapi } = require('@strapi/strapi');

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
async function compiledApp(appDir, progress) {
  if (buildIsCurrent(appDir)) {
    progress('using the current build in dist/');
    return path.join(appDir, 'dist');
  }
  progress('compiling the app (dist/ is older than the sources)');
  return (await compileStrapi({ appDir })).distDir;
}

module.exports = { compiledApp };
