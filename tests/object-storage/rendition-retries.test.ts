import fs from 'node:fs';
import { startBucketService, type BucketService } from '../helpers/bucket-service';
import { jpegPhoto, uploadPhoto } from '../helpers/service-photos';

/**
 * A bucket outage right after an upload's 201: the photo's AVIF and WebP renditions wait in the
 * database and are made once the bucket answers again, without a command: by the running service,
 * or (as here, stopped during the outage) by the next start.
 */
let bed: BucketService;

/** The AVIF and WebP renditions of a 2400-pixel photo, at each of Strapi's three breakpoints. */
const EVERY_RENDITION = ['avif_large', 'avif_medium', 'avif_small', 'webp_large', 'webp_medium', 'webp_small'];

beforeAll(async () => {
  // One retry a second: the test waits seconds, not the default's half a minute.
  bed = await startBucketService('rendition-retries', { ARTIKEL_PHOTO_RETRY_SECONDS: '1', LOG_LEVEL: 'info' });
}, 180_000);

afterAll(async () => {
  await bed?.stop();
});

const log = () => fs.readFileSync(bed.logFile, 'utf8');

const renditionKeysOf = async (baseUrl: string, id: number): Promise<string[]> => {
  const response = await fetch(`${baseUrl}/upload/files/${id}`, { headers: { Authorization: `Bearer ${bed.jwt}` } });
  const file = (await response.json()) as { formats?: Record<string, unknown> | null };
  return Object.keys(file.formats ?? {}).filter((key) => /^(avif|webp)_/.test(key));
};

/** Polls until `check` holds, at most `timeoutMs` (3× what the slowest run took: the machine is shared). */
async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still not so after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

it('makes the renditions of a photo uploaded just before a bucket outage once the bucket answers again, across a restart', async () => {
  const uploaded = await uploadPhoto(bed.service.baseUrl, bed.jwt, 'harbour-at-dusk.jpg', await jpegPhoto(2400, 1600, 60));
  await bed.store.pause();
  await eventually(async () => /the renditions of file \d+ failed \(.*\); tried again in 1 s \(failure 1\)/.test(log()), 60_000);
  expect(await renditionKeysOf(bed.service.baseUrl, uploaded.id)).toEqual([]);

  // The service stops during the outage: the waiting photo is in the database, not in its memory.
  // (It starts only with the bucket answering: its start-up check writes an object.)
  await bed.service.stop();
  await bed.store.resume();
  await bed.restart();
  await eventually(
    async () => /artikel: 1 photos wait for their AVIF and WebP renditions \(1 of them after a storage failure\)/.test(log()),
    30_000,
  );
  await eventually(async () => (await renditionKeysOf(bed.service.baseUrl, uploaded.id)).length >= 6, 120_000);
  const keys = await renditionKeysOf(bed.service.baseUrl, uploaded.id);
  expect(keys.sort()).toEqual(EVERY_RENDITION);
  const objects = await bed.store.keys();
  for (const key of keys) expect(objects.some((object) => object.includes(`${key}_`))).toBe(true);
}, 300_000);

it('makes the renditions by the running service alone when the bucket comes back', async () => {
  const uploaded = await uploadPhoto(bed.service.baseUrl, bed.jwt, 'quay-in-rain.jpg', await jpegPhoto(2400, 1600, 200));
  await bed.store.pause();
  const failures = () => log().match(new RegExp(`the renditions of file ${uploaded.id} failed`, 'g'))?.length ?? 0;
  await eventually(async () => failures() >= 1, 60_000);
  await bed.store.resume();
  await eventually(async () => (await renditionKeysOf(bed.service.baseUrl, uploaded.id)).length >= 6, 120_000);
  expect((await renditionKeysOf(bed.service.baseUrl, uploaded.id)).sort()).toEqual(EVERY_RENDITION);
}, 300_000);

it('finishes the renditions of a photo after a restart that stopped the service while it made them', async () => {
  const uploaded = await uploadPhoto(bed.service.baseUrl, bed.jwt, 'nets-drying.jpg', await jpegPhoto(2400, 1600, 120));
  // Stopped at once: the photo's renditions are under way (or not yet begun).
  await bed.restart();
  await eventually(async () => (await renditionKeysOf(bed.service.baseUrl, uploaded.id)).length >= 6, 120_000);
  expect((await renditionKeysOf(bed.service.baseUrl, uploaded.id)).sort()).toEqual(EVERY_RENDITION);
}, 300_000);
