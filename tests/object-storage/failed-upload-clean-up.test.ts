import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { isContractError } from '../helpers/robustness';
import { startBucketService, type BucketService } from '../helpers/bucket-service';
import { eventually, waitUntil } from '../helpers/eventually';
import { jpegPhoto, uploadPhoto, type UploadedFile } from '../helpers/service-photos';
import { serviceDatabaseEnv } from '../helpers/service-process';

const run = promisify(execFile);
const APP_DIR = path.resolve(__dirname, '..', '..');

/**
 * A bucket that fails half-way through an upload (it took the original and the thumbnail, then
 * refused a size): the editor gets the storage's 503, and no object of that upload stays behind;
 * what a killed upload left is swept by npm run photos:process.
 */
let bed: BucketService;
let databaseEnv: Record<string, string>;

beforeAll(async () => {
  bed = await startBucketService('failed-upload', { ARTIKEL_PHOTO_CONCURRENCY: '2' });
  databaseEnv = await serviceDatabaseEnv(bed.databaseFile);
}, 180_000);

afterAll(async () => {
  await bed?.stop();
});

it('deletes the objects an upload stored before the bucket refused one of its sizes, and answers 503', async () => {
  const before = await bed.store.keys();
  bed.store.refuse(/\/large_/);
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(await jpegPhoto(2400, 1600, 90))], { type: 'image/jpeg' }), 'pier-at-noon.jpg');
  const response = await fetch(`${bed.service.baseUrl}/upload`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${bed.jwt}` },
    body: form,
  });
  const body = (await response.json()) as { data: null; error: { status: number; message: string } };
  expect(response.status).toBe(503);
  expect(isContractError({ status: response.status, body })).toBe(true);
  // In the editor's admin language (Indonesian by default): see bucket-down.test.ts.
  expect(body.error.message).toContain(`bucket "${bed.store.bucket}"`);
  expect(await bed.store.keys()).toEqual(before);
  const files = await fetch(`${bed.service.baseUrl}/upload/files`, { headers: { Authorization: `Bearer ${bed.jwt}` } });
  expect(((await files.json()) as { results: unknown[] }).results).toEqual([]);

  // With the bucket well again, the same photo is stored whole, and stays.
  bed.store.refuse(null);
  const uploaded = await uploadPhoto(bed.service.baseUrl, bed.jwt, 'pier-at-noon.jpg', await jpegPhoto(2400, 1600, 90));
  const keys = await bed.store.keys();
  for (const key of ['thumbnail', 'small', 'medium', 'large'])
    expect(keys.some((object) => object.includes(`${key}_${uploaded.hash}`))).toBe(true);
  expect(keys.some((object) => object.includes(uploaded.hash))).toBe(true);
}, 180_000);

it("keeps the renditions of an upload's first photo when the bucket refuses its second one", async () => {
  // The first photo's WebP renditions wait at the bucket (its renditions are not yet recorded in
  // the Media Library) while the second photo fails: its large size waits until the test refuses it.
  const firstRenditions = bed.store.hold(/\/webp_[a-z]+_dawn_/);
  const secondLarge = bed.store.hold(/\/large_dusk_/);
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(await jpegPhoto(1200, 800, 20))], { type: 'image/jpeg' }), 'dawn.jpg');
  form.append('files', new Blob([new Uint8Array(await jpegPhoto(2400, 1600, 200))], { type: 'image/jpeg' }), 'dusk.jpg');
  const answered = fetch(`${bed.service.baseUrl}/upload`, { method: 'POST', headers: { Authorization: `Bearer ${bed.jwt}` }, body: form });
  const avifOfFirst = async () => (await bed.store.keys()).filter((key) => /avif_[a-z]+_dawn_/.test(key));
  await waitUntil(
    async () => secondLarge.waiting() > 0 && firstRenditions.waiting() > 0 && (await avifOfFirst()).length === 3,
    90_000,
    "the second photo's large size and the first photo's WebP renditions waiting at the bucket, its AVIF ones stored",
  );

  // Refused for good (the S3 client tries a 503 again). The editor's answer does not wait for the
  // first photo's renditions, which are none of the failed upload's objects.
  bed.store.refuse(/\/large_dusk_/);
  secondLarge.release('refuse');
  let giveUp: NodeJS.Timeout | undefined;
  const status = await Promise.race([
    answered.then((response) => response.status),
    new Promise<string>((resolve) => {
      giveUp = setTimeout(() => resolve('no answer within 30 s'), 30_000);
    }),
  ]);
  clearTimeout(giveUp);
  firstRenditions.release('store');
  bed.store.refuse(null);
  expect(status).toBe(503);

  const files = async () => {
    const listed = await fetch(`${bed.service.baseUrl}/upload/files`, { headers: { Authorization: `Bearer ${bed.jwt}` } });
    return ((await listed.json()) as { results: UploadedFile[] }).results;
  };
  const renditionsOf = (file: UploadedFile) => Object.entries(file.formats ?? {}).filter(([key]) => /^(avif|webp)_/.test(key));
  const firstPhoto = async () => (await files()).find((file) => file.hash.startsWith('dawn_'));
  const dawn = await eventually(firstPhoto, (file) => file !== undefined && renditionsOf(file).length === 6, { withinMs: 90_000 });
  if (dawn === undefined) throw new Error("the upload's first photo is not in the Media Library");
  expect(renditionsOf(dawn)).toHaveLength(6);
  // Every rendition the first photo lists is in the bucket, and is served.
  const keys = await bed.store.keys();
  for (const [key] of renditionsOf(dawn)) expect(keys.some((object) => object.includes(`${key}_${dawn.hash}`))).toBe(true);
  for (const [, format] of renditionsOf(dawn)) expect((await fetch(format.url)).status).toBe(200);
  // The failed second photo left nothing behind.
  expect(keys.filter((object) => object.includes('dusk_'))).toEqual([]);
}, 240_000);

// The sweep lists the bucket with a signed ListObjectsV2, which s3rver refuses (see
// tests/helpers/s3-server.ts): it runs against a real S3 server (ARTIKEL_TEST_S3_*, docs/testing.md);
// on the local provider it is tested in tests/api/photo-command.test.ts.
const onARealS3Server = process.env.ARTIKEL_TEST_S3_ENDPOINT ? it : it.skip;

onARealS3Server(
  'deletes with npm run photos:process an object a killed upload left in the bucket, and keeps every photo',
  async () => {
    const photo = await uploadPhoto(bed.service.baseUrl, bed.jwt, 'harbour-wall.jpg', await jpegPhoto(1200, 800, 30));
    // What a service killed between storing a size and recording the file leaves behind.
    const client = new S3Client({
      endpoint: bed.store.endpoint,
      region: bed.store.env.S3_REGION,
      forcePathStyle: true,
      credentials: { accessKeyId: bed.store.env.S3_ACCESS_KEY_ID, secretAccessKey: bed.store.env.S3_SECRET_ACCESS_KEY },
    });
    const orphan = 'thumbnail_killed_upload_0f3a9c.jpg';
    await client.send(
      new PutObjectCommand({ Bucket: bed.store.bucket, Key: orphan, Body: await jpegPhoto(200, 150, 10), ContentType: 'image/jpeg' }),
    );
    client.destroy();
    const held = (await bed.store.keys()).filter((key) => key !== orphan);

    const command = (...options: string[]) =>
      run('node', [path.join(APP_DIR, 'scripts', 'process-photos.js'), ...options], {
        cwd: APP_DIR,
        env: { ...process.env, ...databaseEnv, ...bed.env, STRAPI_TELEMETRY_DISABLED: 'true' },
      });
    const dryRun = (await command('--dry-run', '--orphan-minutes', '0')).stderr;
    expect(dryRun).toContain(`would delete ${orphan}, which no file holds`);
    expect(dryRun).toMatch(/1 stored objects no file holds would be deleted/);
    expect(await bed.store.keys()).toContain(orphan);

    expect((await command('--orphan-minutes', '0')).stderr).toMatch(/1 stored objects no file holds deleted/);
    // (The photo's renditions may have been stored meanwhile: what was held before is all still there.)
    const after = await bed.store.keys();
    expect(after).not.toContain(orphan);
    expect(held.filter((key) => !after.includes(key))).toEqual([]);
    expect(held.some((key) => key.includes(photo.hash))).toBe(true);
  },
  300_000,
);
