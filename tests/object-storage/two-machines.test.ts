import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import supertest from 'supertest';
import { checkedAgainstOpenApi } from '../helpers/openapi-check';
import { CAMERA_EXIF_RECORD, endTagReader, photoFile, privateTagsIn, tagsAt } from '../helpers/photos';
import { everyUrl, publishWithCover, registerAdmin, uploadPhoto, type UploadedFile } from '../helpers/service-photos';
import { startS3Server, type S3Server } from '../helpers/s3-server';
import { removeServiceDatabase, startServiceProcess, type ServiceProcess } from '../helpers/service-process';

// Two service processes on one database, each with a public folder of its own: two machines, as far
// as files go. Uploads go to a real S3 API server (s3rver on 127.0.0.1, or the one ARTIKEL_TEST_S3_ENDPOINT names).
let folder: string;
let databaseFile: string;
let store: S3Server;
let first: ServiceProcess;
let second: ServiceProcess;
let jwt: string;
let photo: Buffer;
let uploaded: UploadedFile;
let slug: string;

const publicDir = (name: string) => {
  const dir = path.join(folder, name);
  fs.mkdirSync(path.join(dir, 'uploads'), { recursive: true });
  return dir;
};

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-two-machines-'));
  databaseFile = path.join(folder, 'shared.db');
  store = await startS3Server();
  first = await startServiceProcess(databaseFile, { ...store.env, PUBLIC_DIR: publicDir('first') });
  second = await startServiceProcess(databaseFile, { ...store.env, PUBLIC_DIR: publicDir('second') });
  jwt = await registerAdmin(first.baseUrl);
  // A camera's JPEG, GPS position and serial number included.
  photo = await photoFile('jpeg', 1200, 800);
  const started = process.hrtime.bigint();
  uploaded = await uploadPhoto(first.baseUrl, jwt, 'harbour-at-dusk.jpg', photo);
  process.stdout.write(
    `[object-storage] upload of a 1200×800 photo and its formats: ${Number(process.hrtime.bigint() - started) / 1e6} ms\n`,
  );
  slug = await publishWithCover(first.baseUrl, jwt, 'Harbour at dusk', uploaded.id);
}, 180_000);

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
  await store?.stop();
  await endTagReader();
  await removeServiceDatabase(databaseFile);
  fs.rmSync(folder, { recursive: true, force: true });
});

interface Photo {
  url: string;
  formats: Array<{ name: string; url: string }>;
  srcset: string;
}

describe('photos on more than one machine', () => {
  it('serves a photo uploaded through one instance from the store, with every URL the other instance hands out', async () => {
    const read = await supertest.agent(second.baseUrl).use(checkedAgainstOpenApi).get(`/api/artikel/${slug}`).expect(200);
    const fetched = await fetch(`${second.baseUrl}/api/artikel/${slug}`);
    expect(fetched.status).toBe(200);
    const article = ((await fetched.json()) as { data: { cover: Photo; cover_image_url: string; json_ld: string; views: number } }).data;
    expect({ ...article, views: 0 }).toEqual({ ...read.body.data, views: 0 });

    const cover = article.cover;
    const urls = [cover.url, ...cover.formats.map((format) => format.url)];
    // What a browser does with the URL the other instance handed out (a path is on that instance).
    const original = await fetch(new URL(cover.url, second.baseUrl));
    expect(original.status).toBe(200);
    // The Media Library may optimise the original (sizeOptimization): the photo, not its bytes.
    expect(await sharp(Buffer.from(await original.arrayBuffer())).metadata()).toMatchObject({ format: 'jpeg', width: 1200, height: 800 });
    expect(cover.formats.map((format) => format.name).sort()).toEqual(['large', 'medium', 'small', 'thumbnail']);
    for (const url of urls) expect(url.startsWith(`${store.endpoint}/${store.bucket}/`)).toBe(true);
    expect(article.cover_image_url).toBe(cover.url);
    expect((JSON.parse(article.json_ld) as { image: Array<{ contentUrl: string }> }).image.map((image) => image.contentUrl)).toEqual([
      cover.url,
    ]);

    // The bytes came from the store, not from either instance's disk.
    for (const url of urls) {
      const answer = await fetch(url, { method: 'HEAD' });
      expect([url, answer.status, answer.headers.get('content-type'), answer.headers.get('cache-control')]).toEqual([
        url,
        200,
        'image/jpeg',
        'public, max-age=86400',
      ]);
    }
    expect(fs.readdirSync(path.join(folder, 'first', 'uploads'))).toEqual([]);
    expect(fs.readdirSync(path.join(folder, 'second', 'uploads'))).toEqual([]);

    // The feeds and the sitemap of the other instance name the store's URL too.
    for (const feed of ['/api/artikel/feed/rss', '/api/artikel/feed/json', '/api/artikel/sitemap.xml']) {
      const answer = await fetch(`${second.baseUrl}${feed}`);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain(cover.url);
    }
  });

  it('stores no GPS position, serial number or owner name in the bucket, and the other instance serves the camera data', async () => {
    const read = await supertest.agent(second.baseUrl).use(checkedAgainstOpenApi).get(`/api/artikel/${slug}`).expect(200);
    const cover = (read.body as { data: { cover: Photo & { exif: unknown } } }).data.cover;
    expect(cover.exif).toEqual(CAMERA_EXIF_RECORD);
    for (const url of [cover.url, ...cover.formats.map((format) => format.url)]) {
      expect({ url, privateTags: privateTagsIn(await tagsAt(url)) }).toEqual({ url, privateTags: [] });
    }
  });

  it('removes the original and every rendition from the store when the photo is deleted in the Media Library', async () => {
    // The AVIF and WebP renditions are made after the upload answered: the photo is deleted once they are stored.
    const fileRecord = async () =>
      (await (
        await fetch(`${first.baseUrl}/upload/files/${uploaded.id}`, { headers: { Authorization: `Bearer ${jwt}` } })
      ).json()) as UploadedFile;
    const deadline = Date.now() + 120_000;
    let file = await fileRecord();
    while (!Object.keys(file.formats ?? {}).some((key) => key.startsWith('webp_'))) {
      if (Date.now() > deadline) throw new Error('the renditions were not made');
      await new Promise((resolve) => setTimeout(resolve, 250));
      file = await fileRecord();
    }
    const keysBefore = await store.keys();
    const urls = everyUrl(file);
    // The original, Strapi's four sizes, and AVIF and WebP at its three breakpoints.
    expect(urls).toHaveLength(11);
    for (const url of urls) expect(keysBefore).toContain(url.slice(`${store.endpoint}/${store.bucket}/`.length));

    const deleted = await fetch(`${first.baseUrl}/upload/files/${uploaded.id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${jwt}` },
    });
    expect(deleted.status).toBe(200);
    // A missing object is a 404 to a reader who may list the bucket; to an anonymous reader, who may
    // only get objects, AWS S3 and Ceph answer 403 (s3rver 404). The listing below is the proof.
    for (const url of urls) expect([403, 404]).toContain((await fetch(url)).status);
    expect(await store.keys()).toEqual(keysBefore.filter((key) => !urls.some((url) => url.endsWith(`/${key}`))));
    expect(await store.keys()).toEqual([]);
  });
});
