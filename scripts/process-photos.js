'use strict';

// Cleans and describes photos already in the Media Library (uploaded before the upload hooks
// existed, or brought in by strapi import/transfer): every stored file of every image loses its GPS
// position, serial numbers and owner names; each photo gets its placeholder, colour and camera data
// and its AVIF and WebP renditions; and the stored objects no file holds (an upload killed
// half-way), last changed more than --orphan-minutes ago (60), are deleted. Safe to run again:
// done work is skipped.
// Usage: npm run photos:process -- [--dry-run] [--again] [--orphan-minutes N]
const path = require('node:path');
const { UsageError, commandLine } = require('./lib/command-line');
const { compiledApp, loadStrapi, progressPrinter, runCommand } = require('./lib/load-strapi');
const { sweepOrphans } = require('./lib/orphan-objects');

const USAGE = 'usage: npm run photos:process -- [--dry-run] [--again] [--orphan-minutes N]';

/** The options given (null after --help), or a usage error naming the one not understood. */
function options() {
  const given = commandLine({
    usage: USAGE,
    options: { 'dry-run': { type: 'boolean' }, again: { type: 'boolean' }, 'orphan-minutes': { type: 'string' } },
  });
  if (given === null) return null;
  const minutes = given['orphan-minutes'] ?? '60';
  if (!/^\d{1,6}$/.test(minutes)) throw new UsageError(`--orphan-minutes takes whole minutes, at most 999999, not "${minutes}"\n${USAGE}`);
  return { dryRun: given['dry-run'] === true, again: given.again === true, orphanMinutes: Number(minutes) };
}

async function main() {
  const chosen = options();
  if (chosen === null) return;
  const { dryRun, again, orphanMinutes } = chosen;
  const progress = progressPrinter();
  const distDir = await compiledApp(progress);
  const { objectStorageFromEnv, s3ClientOptions } = require(path.join(distDir, 'src', 'object-storage.js'));
  const storage = { settings: objectStorageFromEnv((name, fallback = '') => process.env[name] ?? fallback), s3ClientOptions };
  const strapi = await loadStrapi(progress, distDir);
  try {
    progress(dryRun ? 'looking at every image (dry run: nothing is written)' : 'processing every image');
    const report = await strapi.plugin('artikel').service('stored-photos').processAll({ dryRun, again, progress });
    const orphans = await sweepOrphans(strapi, { storage, minutes: orphanMinutes, dryRun, progress });
    const would = (verb) => (dryRun ? `would be ${verb}` : verb);
    progress(
      `done: ${report.files} images; ${report.cleaned} stored files ${would('cleaned')} of private metadata; ` +
        `${report.described} ${would('described')}; ${report.rendered} ${would('given')} AVIF and WebP renditions; ` +
        `${report.failed} failed; ${report.waiting} still waiting for the service to make their renditions; ` +
        `${orphans} stored objects no file holds ${would('deleted')}`,
    );
    process.exitCode = report.failed > 0 ? 1 : 0;
  } finally {
    await strapi.destroy();
  }
}

runCommand(main);
