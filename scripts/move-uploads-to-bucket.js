'use strict';

// npm run uploads:move-to-bucket -- [--dry-run] [--limit N]
//
// Copies the Media Library's files kept on this machine's disk (the local provider, public/uploads)
// into the object storage the environment configures (S3_BUCKET and the other S3_* variables, as
// the service reads them; see docs/operations.md), then points their records at the bucket: the
// original's url, every entry of `formats` (whatever its name: thumbnail, small, medium, large or
// any rendition another feature adds) and `provider`. A file is switched only once all of its
// objects are in the bucket, in one update, so the command can be stopped at any point and run
// again: files already switched are skipped, a file stopped halfway is copied again (same keys).
// The local files stay where they are; remove them once the service runs on the bucket.
//
// --dry-run  lists what would be copied (and every file missing on disk) and changes nothing.
// --limit N  switches at most N files in this run (a studio moved in batches).
const fs = require('node:fs');
const path = require('node:path');
const { UsageError, commandLine } = require('./lib/command-line');
const { formatsOf } = require('./lib/file-records');
const { compiledApp, loadStrapi, progressPrinter, runCommand } = require('./lib/load-strapi');

const FILE_UID = 'plugin::upload.file';
const LOCAL = 'local';
const USAGE = 'usage: npm run uploads:move-to-bucket -- [--dry-run] [--limit N]';

/** Progress on stderr; the summary (one line per outcome) on stdout. */
const progress = progressPrinter();

/** The command line's options (null after --help); anything else is refused with the usage. */
function options() {
  const given = commandLine({ usage: USAGE, options: { 'dry-run': { type: 'boolean' }, limit: { type: 'string' } } });
  if (given === null) return null;
  const limit = given.limit;
  if (limit !== undefined && !/^[1-9]\d{0,8}$/.test(limit))
    throw new UsageError(`--limit takes a whole number of files from 1, not "${limit}"\n${USAGE}`);
  return { dryRun: given['dry-run'] === true, limit: limit === undefined ? Infinity : Number(limit) };
}

/**
 * Each object of a record that is still on disk: the original and every format entry with a local
 * URL (`/uploads/<name>`), with the file it is read from. A URL outside the uploads folder is refused.
 */
function localObjects(record, uploadsDir) {
  const entries = [{ name: null, entry: record }, ...Object.entries(formatsOf(record) ?? {}).map(([name, entry]) => ({ name, entry }))];
  return entries
    .filter(({ entry }) => entry !== null && typeof entry === 'object' && typeof entry.url === 'string' && entry.url.startsWith('/'))
    .map(({ name, entry }) => {
      const file = path.resolve(uploadsDir, '..', `.${decodeURIComponent(new URL(entry.url, 'http://local').pathname)}`);
      if (!file.startsWith(`${uploadsDir}${path.sep}`)) throw new Error(`file ${record.id}: ${entry.url} is not in the uploads folder`);
      return { name, entry, file };
    });
}

async function main() {
  const chosen = options();
  if (chosen === null) return;
  const { dryRun, limit } = chosen;
  const distDir = await compiledApp(progress);
  const { objectStorageFromEnv, describeStore, OBJECT_STORAGE_PROVIDER } = require(path.join(distDir, 'src', 'object-storage.js'));
  const settings = objectStorageFromEnv((name, fallback = '') => process.env[name] ?? fallback);
  if (settings === null)
    throw new Error('S3_BUCKET is not set: set the S3_* variables the service will run with (docs/operations.md), then run this again');
  // Loading runs the service's start-up check on the bucket: a store that cannot take a file stops here.
  progress(`uploads go to the ${describeStore(settings)}`);
  const strapi = await loadStrapi(progress, distDir);
  try {
    const provider = strapi.plugin('upload').provider;
    const uploadsDir = path.join(strapi.dirs.static.public, 'uploads');
    const files = strapi.db.query(FILE_UID);
    const alreadyMoved = await files.count({ where: { provider: { $ne: LOCAL } } });
    const local = await files.findMany({ where: { provider: LOCAL }, orderBy: { id: 'asc' } });
    progress(`${local.length} files on the local provider, ${alreadyMoved} already elsewhere`);
    const totals = { files: 0, objects: 0, bytes: 0, missing: [] };
    for (const record of local) {
      if (totals.files >= limit) break;
      const objects = localObjects(record, uploadsDir);
      const missing = objects.filter((object) => !fs.existsSync(object.file));
      if (missing.length > 0) {
        // Never point a record at an object that could not be copied: it stays as it is, and is named.
        totals.missing.push(
          `file ${record.id} (${record.name}): ${missing.map((object) => path.relative(uploadsDir, object.file)).join(', ')}`,
        );
        continue;
      }
      totals.files += 1;
      totals.objects += objects.length;
      totals.bytes += objects.reduce((sum, object) => sum + fs.statSync(object.file).size, 0);
      if (dryRun) continue;
      const copied = await Promise.all(
        objects.map(async ({ name, entry, file }) => {
          const ext = path.extname(file);
          const stored = {
            name: path.basename(file),
            hash: path.basename(file, ext),
            ext,
            mime: entry.mime || record.mime || 'application/octet-stream',
            buffer: await fs.promises.readFile(file),
          };
          stored.size = stored.buffer.length / 1024;
          await provider.upload(stored);
          return { name, url: stored.url };
        }),
      );
      const url = copied.find((object) => object.name === null)?.url ?? record.url;
      const formats = formatsOf(record);
      const movedFormats =
        formats === null
          ? record.formats
          : Object.fromEntries(
              Object.entries(formats).map(([name, entry]) => {
                const moved = copied.find((object) => object.name === name);
                return [name, moved === undefined ? entry : { ...entry, url: moved.url }];
              }),
            );
      // Only if it is still on the local provider: a record another run switched meanwhile is left alone.
      await files.updateMany({
        where: { id: record.id, provider: LOCAL },
        data: { url, formats: movedFormats, provider: OBJECT_STORAGE_PROVIDER, provider_metadata: null },
      });
      if (totals.files % 25 === 0) progress(`${totals.files} files moved`);
    }
    const verb = dryRun ? 'would move' : 'moved';
    process.stdout.write(
      `${verb} ${totals.files} files (${totals.objects} objects, ${(totals.bytes / 1024 / 1024).toFixed(1)} MB) to the ${describeStore(settings)}\n` +
        `${alreadyMoved} files were already in object storage\n` +
        `${local.length - totals.files - totals.missing.length} local files left for a later run (--limit)\n` +
        `${totals.missing.length} files missing on disk, left as they are${totals.missing.map((line) => `\n  ${line}`).join('')}\n`,
    );
    progress(dryRun ? 'dry run: nothing was changed' : 'done; the local files are still in place');
  } finally {
    await strapi.destroy();
  }
}

runCommand(main);
