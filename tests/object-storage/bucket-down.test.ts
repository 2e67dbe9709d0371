import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isContractError } from '../helpers/robustness';
import { startS3Server, type S3Server } from '../helpers/s3-server';
import { jpegPhoto, registerAdmin } from '../helpers/service-photos';
import { removeServiceDatabase, startServiceProcess, type ServiceProcess } from '../helpers/service-process';

/**
 * An upload while the bucket does not answer: a 503 that names the bucket, its address and what
 * failed, with what to check, never a credential; and the service goes on answering.
 */
let folder: string;
let databaseFile: string;
let store: S3Server;
let service: ServiceProcess;
let jwt: string;

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-bucket-down-'));
  databaseFile = path.join(folder, 'data.db');
  store = await startS3Server();
  service = await startServiceProcess(databaseFile, { ...store.env, PUBLIC_DIR: path.join(folder, 'public') });
  jwt = await registerAdmin(service.baseUrl);
}, 180_000);

afterAll(async () => {
  await service?.stop();
  await store?.stop();
  await removeServiceDatabase(databaseFile);
  fs.rmSync(folder, { recursive: true, force: true });
});

async function uploadWhileDown(): Promise<{ status: number; body: { data: null; error: { status: number; message: string } } }> {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(await jpegPhoto(400, 300, 30))], { type: 'image/jpeg' }), 'harbour.jpg');
  const response = await fetch(`${service.baseUrl}/upload`, { method: 'POST', headers: { Authorization: `Bearer ${jwt}` }, body: form });
  return { status: response.status, body: (await response.json()) as { data: null; error: { status: number; message: string } } };
}

it('answers an upload the bucket cannot take with a 503 naming the bucket and what to check, and keeps answering', async () => {
  await store.pause();
  // The studio's editors see the admin in Indonesian (ADMIN_DEFAULT_LOCALE): so does the failure.
  const inIndonesian = await uploadWhileDown();
  expect(inIndonesian.status).toBe(503);
  expect(isContractError(inIndonesian)).toBe(true);
  expect(inIndonesian.body.error.message).toContain(`Foto tidak dapat disimpan: bucket "${store.bucket}" di ${store.endpoint} menjawab`);
  expect(inIndonesian.body.error.message).toMatch(/Pastikan penyimpanan objek berjalan dan dapat dijangkau/);
  expect(inIndonesian.body.error.message).not.toContain(store.env.S3_SECRET_ACCESS_KEY);

  // An editor who chose English in their profile reads it in English.
  const profile = await fetch(`${service.baseUrl}/admin/users/me`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${jwt}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ preferedLanguage: 'en' }),
  });
  expect(profile.status).toBe(200);
  const inEnglish = await uploadWhileDown();
  expect(inEnglish.status).toBe(503);
  expect(inEnglish.body.error.message).toContain(`the bucket "${store.bucket}" at ${store.endpoint} answered`);
  expect(inEnglish.body.error.message).toMatch(/Check that the object storage is running and reachable/);
  expect(inEnglish.body.error.message).not.toContain(store.env.S3_SECRET_ACCESS_KEY);
  expect((await fetch(`${service.baseUrl}/api/artikel`)).status).toBe(200);
}, 120_000);
