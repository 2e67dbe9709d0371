import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import supertest from 'supertest';
import { checkedAgainstOpenApi } from '../helpers/openapi-check';
import { everyUrl, jpegPhoto, publishWithCover, registerAdmin, uploadPhoto, type UploadedFile } from '../helpers/service-photos';
import { startS3Server, type S3Server } from '../helpers/s3-server';
import { removeServiceDatabase, serviceDatabaseEnv, startServiceProcess } from '../helpers/service-process';

const PHOTOS = 50;
// Each 640×480 photo is stored as 5 objects: the original, Strapi's thumbnail and small sizes, and
// the AVIF and WebP renditions at the small breakpoint.
const OBJECTS_PER_PHOTO = 5;
const SCRIPT = path.resolve(__dirname, '..', '..', 'scripts', 'move-uploads-to-bucket.js');

let folder: string;
let databaseFile: string;
let publicDir: string;
let store: S3Server;
let jwt: string;
let slug: string;
let localUrls: string[];

/** Runs the move command as an operator does (npm run uploads:move-to-bucket -- …); its summary. */
async function move(...args: string[]): Promise<string> {
  const started = process.hrtime.bigint();
  const { stdout } = await promisify(execFile)(process.execPath, [SCRIPT, ...args], {
    env: { ...process.env, ...(await serviceDatabaseEnv(databaseFile)), ...store.env, PUBLIC_DIR: publicDir, LOG_LEVEL: 'error' },
  });
  process.stdout.write(
    `[object-storage] move ${args.join(' ') || '(all)'}: ${Number(process.hrtime.bigint() - started) / 1e6} ms\n${stdout.trimEnd().replace(/^/gm, '  ')}\n`,
  );
  return stdout;
}

async function mediaLibrary(baseUrl: string): Promise<UploadedFile[]> {
  const answer = await fetch(`${baseUrl}/upload/files?pageSize=100`, { headers: { Authorization: `Bearer ${jwt}` } });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { results: UploadedFile[] }).results;
}

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-move-'));
  databaseFile = path.join(folder, 'studio.db');
  publicDir = path.join(folder, 'public');
  fs.mkdirSync(path.join(publicDir, 'uploads'), { recursive: true });
  store = await startS3Server();
  // A studio on local files: 50 photos uploaded through the Media Library, one the cover of an article.
  const studio = await startServiceProcess(databaseFile, { PUBLIC_DIR: publicDir });
  try {
    jwt = await registerAdmin(studio.baseUrl);
    const started = process.hrtime.bigint();
    const uploaded: UploadedFile[] = [];
    for (let index = 0; index < PHOTOS; index += 1)
      uploaded.push(await uploadPhoto(studio.baseUrl, jwt, `studio-${index}.jpg`, await jpegPhoto(640, 480, index * 5)));
    process.stdout.write(
      `[object-storage] ${PHOTOS} uploads on the local provider: ${(Number(process.hrtime.bigint() - started) / 1e6 / PHOTOS).toFixed(1)} ms a photo\n`,
    );
    slug = await publishWithCover(studio.baseUrl, jwt, 'Studio portraits', uploaded[0].id);
    // The AVIF and WebP renditions are made after each upload has answered: the studio is moved once they are all there.
    const deadline = Date.now() + 180_000;
    let files = await mediaLibrary(studio.baseUrl);
    while (files.some((file) => Object.keys(file.formats ?? {}).length < OBJECTS_PER_PHOTO - 1)) {
      if (Date.now() > deadline) throw new Error('the renditions of the studio photos were not all made');
      await new Promise((resolve) => setTimeout(resolve, 500));
      files = await mediaLibrary(studio.baseUrl);
    }
    localUrls = files.flatMap(everyUrl);
  } finally {
    await studio.stop();
  }
}, 240_000);

afterAll(async () => {
  await store?.stop();
  await removeServiceDatabase(databaseFile);
  fs.rmSync(folder, { recursive: true, force: true });
});

describe('moving a studio’s local uploads into the bucket', () => {
  it('lists what it would copy in a dry run and changes nothing', async () => {
    expect(localUrls).toHaveLength(PHOTOS * OBJECTS_PER_PHOTO);
    expect(localUrls.every((url) => url.startsWith('/uploads/'))).toBe(true);
    const summary = await move('--dry-run');
    expect(summary).toContain(`would move ${PHOTOS} files (${PHOTOS * OBJECTS_PER_PHOTO} objects`);
    expect(summary).toContain('0 files missing on disk');
    expect(await store.keys()).toEqual([]);
  });

  it('copies every original and every format, in batches and again, without a broken URL', async () => {
    expect(await move('--limit', '20')).toContain(`moved 20 files (${20 * OBJECTS_PER_PHOTO} objects`);
    const second = await move();
    expect(second).toContain(`moved ${PHOTOS - 20} files (${(PHOTOS - 20) * OBJECTS_PER_PHOTO} objects`);
    expect(second).toContain('20 files were already in object storage');
    const third = await move();
    expect(third).toContain('moved 0 files (0 objects');
    expect(third).toContain(`${PHOTOS} files were already in object storage`);

    const expectedKeys = localUrls.map((url) => url.slice('/uploads/'.length)).sort();
    expect(await store.keys()).toEqual(expectedKeys);

    // The service on the bucket, with an empty public folder: nothing can come from the old disk.
    const emptyPublic = path.join(folder, 'elsewhere');
    fs.mkdirSync(emptyPublic);
    const service = await startServiceProcess(databaseFile, { ...store.env, PUBLIC_DIR: emptyPublic });
    try {
      const files = await mediaLibrary(service.baseUrl);
      expect(files).toHaveLength(PHOTOS);
      const urls = files.flatMap(everyUrl);
      expect(urls).toHaveLength(PHOTOS * OBJECTS_PER_PHOTO);
      for (const file of files) expect(file.provider).toBe('aws-s3');
      const typeOf = (url: string) => (url.endsWith('.avif') ? 'image/avif' : url.endsWith('.webp') ? 'image/webp' : 'image/jpeg');
      for (const url of urls) {
        expect(url.startsWith(`${store.endpoint}/${store.bucket}/`)).toBe(true);
        const answer = await fetch(url, { method: 'HEAD' });
        expect([url, answer.status, answer.headers.get('content-type'), answer.headers.get('cache-control')]).toEqual([
          url,
          200,
          typeOf(url),
          'public, max-age=86400',
        ]);
      }
      const article = (await supertest.agent(service.baseUrl).use(checkedAgainstOpenApi).get(`/api/artikel/${slug}`).expect(200)).body
        .data as { cover: { url: string; formats: Array<{ url: string }> } };
      const coverUrls = [article.cover.url, ...article.cover.formats.map((format) => format.url)];
      expect(coverUrls.every((url) => urls.includes(url))).toBe(true);
      for (const url of coverUrls) expect((await fetch(url)).status).toBe(200);

      // The same photos' upload time on the bucket, for the figure beside the local one above.
      const started = process.hrtime.bigint();
      for (let index = 0; index < 10; index += 1)
        expect((await uploadPhoto(service.baseUrl, jwt, `bucket-${index}.jpg`, await jpegPhoto(640, 480, index * 5))).provider).toBe(
          'aws-s3',
        );
      process.stdout.write(
        `[object-storage] 10 uploads to the bucket: ${(Number(process.hrtime.bigint() - started) / 1e6 / 10).toFixed(1)} ms a photo\n`,
      );
    } finally {
      await service.stop();
    }
    // Three runs of the command (each loads Strapi), a service start, 250 HEADs and 10 uploads:
    // 20–45 s in the suites' runs, 60+ s on a machine loaded by another suite.
  }, 180_000);
});
