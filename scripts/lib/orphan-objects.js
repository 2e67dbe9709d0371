'use strict';

// The stored objects no Media Library file holds (left by an upload killed half-way, or by a crash
// between storing and recording), for `npm run photos:process`: listed on a dry run, deleted on a
// real one. Only objects older than the given age count, so an upload under way is never touched.
const fs = require('node:fs');
const path = require('node:path');
const { formatsOf } = require('./file-records');

const FILE_UID = 'plugin::upload.file';
const PAGE = 500;

/** The last segment of a stored file's URL (its hash and extension), as its object's key ends. */
const objectName = (url) => decodeURIComponent(new URL(url, 'http://local').pathname.split('/').pop() ?? '');

/** The object names every file holds: each original and each of its formats (sizes, renditions). */
async function heldNames(strapi) {
  const held = new Set();
  for (let after = 0; ;) {
    const page = await strapi.db
      .query(FILE_UID)
      .findMany({ where: { id: { $gt: after } }, select: ['id', 'url', 'formats'], orderBy: { id: 'asc' }, limit: PAGE });
    if (page.length === 0) return held;
    for (const file of page) {
      after = file.id;
      if (typeof file.url === 'string') held.add(objectName(file.url));
      for (const format of Object.values(formatsOf(file) ?? {})) if (typeof format?.url === 'string') held.add(objectName(format.url));
    }
  }
}

/** Every object of the bucket under the root path: its key, name and last change. */
async function bucketObjects(settings, s3ClientOptions) {
  const { ListObjectsV2Command, S3Client } = require('@aws-sdk/client-s3');
  const client = new S3Client(s3ClientOptions(settings));
  const objects = [];
  let token;
  try {
    do {
      const page = await client.send(
        new ListObjectsV2Command({
          Bucket: settings.bucket,
          Prefix: settings.rootPath ? `${settings.rootPath}/` : undefined,
          ContinuationToken: token,
        }),
      );
      for (const object of page.Contents ?? [])
        objects.push({ key: object.Key, name: object.Key.split('/').pop(), changedAt: object.LastModified?.getTime() ?? 0 });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  } finally {
    client.destroy();
  }
  return objects;
}

/** Every file of the local uploads folder, as an object of the local provider (Strapi names none with a dot first: .gitkeep stays). */
function localObjects(uploadsDir) {
  if (!fs.existsSync(uploadsDir)) return [];
  return fs
    .readdirSync(uploadsDir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
    .map((entry) => ({
      key: `/uploads/${entry.name}`,
      name: entry.name,
      changedAt: fs.statSync(path.join(uploadsDir, entry.name)).mtimeMs,
    }));
}

/**
 * The objects of the store in use (the bucket when S3_BUCKET is set, else public/uploads) that no
 * file holds and that were last changed more than `minutes` ago; deleted unless `dryRun`.
 */
async function sweepOrphans(strapi, { storage, minutes, dryRun, progress }) {
  const held = await heldNames(strapi);
  const uploadsDir = path.join(strapi.dirs.static.public, 'uploads');
  const objects = storage.settings === null ? localObjects(uploadsDir) : await bucketObjects(storage.settings, storage.s3ClientOptions);
  const before = Date.now() - minutes * 60_000;
  const orphans = objects.filter((object) => !held.has(object.name) && object.changedAt < before);
  for (const orphan of orphans) progress(`${dryRun ? 'would delete' : 'deleting'} ${orphan.key}, which no file holds`);
  if (dryRun || orphans.length === 0) return orphans.length;
  if (storage.settings === null) {
    for (const orphan of orphans) fs.rmSync(path.join(uploadsDir, orphan.name), { force: true });
    return orphans.length;
  }
  const { DeleteObjectsCommand, S3Client } = require('@aws-sdk/client-s3');
  const client = new S3Client(storage.s3ClientOptions(storage.settings));
  try {
    for (let start = 0; start < orphans.length; start += 1000) {
      const batch = orphans.slice(start, start + 1000).map((orphan) => ({ Key: orphan.key }));
      await client.send(new DeleteObjectsCommand({ Bucket: storage.settings.bucket, Delete: { Objects: batch } }));
    }
  } finally {
    client.destroy();
  }
  return orphans.length;
}

module.exports = { sweepOrphans };
