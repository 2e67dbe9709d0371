'use strict';

// Cleans and describes photos already in the Media Library (uploaded before the upload hooks
// existed, or brought in by strapi import/transfer): every stored file of every image loses its GPS
// position, serial numbers and owner names; each photo gets its placeholder, colour and camera data
// and its AVIF and WebP renditions. Safe to run again: done work is skipped.
// Usage: npm run photos:process -- [--dry-run] [--again]
const { loadStrapi, progressPrinter, runCommand } = require('./lib/load-strapi');

const OPTIONS = ['--dry-run', '--again'];

async function main() {
  const unknown = process.argv.slice(2).filter((argument) => !OPTIONS.includes(argument));
  if (unknown.length > 0) throw new Error(`unknown option ${unknown.join(' ')}; the options are ${OPTIONS.join(', ')}`);
  const dryRun = process.argv.includes('--dry-run');
  const again = process.argv.includes('--again');
  const progress = progressPrinter();
  const strapi = await loadStrapi(progress);
  try {
    progress(dryRun ? 'looking at every image (dry run: nothing is written)' : 'processing every image');
    const report = await strapi.plugin('artikel').service('stored-photos').processAll({ dryRun, again, progress });
    const would = (verb) => (dryRun ? `would be ${verb}` : verb);
    progress(
      `done: ${report.files} images; ${report.cleaned} stored files ${would('cleaned')} of private metadata; ` +
        `${report.described} ${would('described')}; ${report.rendered} ${would('given')} AVIF and WebP renditions; ` +
        `${report.failed} failed; ${report.waiting} still waiting for the service to make their renditions`,
    );
    process.exitCode = report.failed > 0 ? 1 : 0;
  } finally {
    await strapi.destroy();
  }
}

runCommand(main);
