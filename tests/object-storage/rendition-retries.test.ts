import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startS3Server, type S3Server } from '../helpers/s3-server';
import { jpegPhoto, registerAdmin, uploadPhoto } from '../helpers/service-photos';
import { removeServiceDatabase, startServiceProcess, type ServiceProcess } from '../helpers/service-process';

/**
 * A bucket outage right after an upload's 201: the photo's AVIF and WebP renditions wait in the
 * database and are made once the bucket answers again, without a command: by the running service,
 * or (as here, stopped during the outage) by the next start.
 */
let folder: string;
let databaseFile: string;
let logFile: string;
let store: S3Server;
let service: ServiceProcess | undefined;
let jwt: string;

/** One retry a second: the test waits seconds, not the default's half a minute. */
const serviceEnv = () => ({ ...store.env, PUBLIC_DIR: path.join(folder, 'public'), ARTIKEL_PHOTO_RETRY_SECONDS: '1', LOG_LEVEL: 'info' });

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-rendition-retries-'));
  databaseFile = path.join(folder, 'data.db');
  logFile = path.join(folder, 'service.log');
  store = await startS3Server();
  service = await startServiceProcess(databaseFile, serviceEnv(), { logFile });
  jwt = await registerAdmin(service.baseUrl);
}, 180_000);

afterAll(async () => {
  await service?.stop();
  await store?.stop();
  await removeServiceDatabase(databaseFile);
  fs.rmSync(folder, { recursive: true, force: true });
});

const renditionKeysOf = async (baseUrl: string, id: number): Promise<string[]> => {
  const response = await fetch(`${baseUrl}/upload/files/${id}`, { headers: { Authorization: `Bearer ${jwt}` } });
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
  const uploaded = await uploadPhoto(service!.baseUrl, jwt, 'harbour-at-dusk.jpg', await jpegPhoto(2400, 1600, 60));
  await store.pause();
  await eventually(
    async () => /the renditions of file \d+ failed \(.*\); tried again in 1 s \(failure 1\)/.test(fs.readFileSync(logFile, 'utf8')),
    60_000,
  );
  expect(await renditionKeysOf(service!.baseUrl, uploaded.id)).toEqual([]);

  // The service stops during the outage: the waiting photo is in the database, not in its memory.
  // (It starts only with the bucket answering: its start-up check writes an object.)
  await service!.stop();
  await store.resume();
  service = await startServiceProcess(databaseFile, serviceEnv(), { logFile });
  await eventually(
    async () =>
      /artikel: 1 photos wait for their AVIF and WebP renditions \(1 of them after a storage failure\)/.test(
        fs.readFileSync(logFile, 'utf8'),
      ),
    30_000,
  );
  await eventually(async () => (await renditionKeysOf(service!.baseUrl, uploaded.id)).length >= 6, 120_000);
  const keys = await renditionKeysOf(service!.baseUrl, uploaded.id);
  expect(keys.sort()).toEqual(['avif_large', 'avif_medium', 'avif_small', 'webp_large', 'webp_medium', 'webp_small']);
  const objects = await store.keys();
  for (const key of keys) expect(objects.some((object) => object.includes(`${key}_`))).toBe(true);
}, 300_000);

it('makes the renditions by the running service alone when the bucket comes back', async () => {
  const uploaded = await uploadPhoto(service!.baseUrl, jwt, 'quay-in-rain.jpg', await jpegPhoto(2400, 1600, 200));
  await store.pause();
  const failures = () =>
    fs.readFileSync(logFile, 'utf8').match(new RegExp(`the renditions of file ${uploaded.id} failed`, 'g'))?.length ?? 0;
  await eventually(async () => failures() >= 1, 60_000);
  await store.resume();
  await eventually(async () => (await renditionKeysOf(service!.baseUrl, uploaded.id)).length >= 6, 120_000);
  expect((await renditionKeysOf(service!.baseUrl, uploaded.id)).sort()).toEqual([
    'avif_large',
    'avif_medium',
    'avif_small',
    'webp_large',
    'webp_medium',
    'webp_small',
  ]);
}, 300_000);

it('finishes the renditions of a photo after a restart that stopped the service while it made them', async () => {
  const uploaded = await uploadPhoto(service!.baseUrl, jwt, 'nets-drying.jpg', await jpegPhoto(2400, 1600, 120));
  // Stopped at once: the photo's renditions are under way (or not yet begun).
  await service!.stop();
  service = await startServiceProcess(databaseFile, serviceEnv(), { logFile });
  await eventually(async () => (await renditionKeysOf(service!.baseUrl, uploaded.id)).length >= 6, 120_000);
  expect((await renditionKeysOf(service!.baseUrl, uploaded.id)).sort()).toEqual([
    'avif_large',
    'avif_medium',
    'avif_small',
    'webp_large',
    'webp_medium',
    'webp_small',
  ]);
}, 300_000);
