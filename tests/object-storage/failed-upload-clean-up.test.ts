import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isContractError } from '../helpers/robustness';
import { startS3Server, type S3Server } from '../helpers/s3-server';
import { jpegPhoto, registerAdmin, uploadPhoto } from '../helpers/service-photos';
import { removeServiceDatabase, startServiceProcess, type ServiceProcess } from '../helpers/service-process';

/**
 * A bucket that fails half-way through an upload (it took the original and the thumbnail, then
 * refused a size): the editor gets the storage's 503, and no object of that upload stays behind.
 */
let folder: string;
let databaseFile: string;
let store: S3Server;
let service: ServiceProcess;
let jwt: string;

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-failed-upload-'));
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

it('deletes the objects an upload stored before the bucket refused one of its sizes, and answers 503', async () => {
  const before = await store.keys();
  store.refuse(/\/large_/);
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(await jpegPhoto(2400, 1600, 90))], { type: 'image/jpeg' }), 'pier-at-noon.jpg');
  const response = await fetch(`${service.baseUrl}/upload`, { method: 'POST', headers: { Authorization: `Bearer ${jwt}` }, body: form });
  const body = (await response.json()) as { data: null; error: { status: number; message: string } };
  expect(response.status).toBe(503);
  expect(isContractError({ status: response.status, body })).toBe(true);
  expect(body.error.message).toContain(`the bucket "${store.bucket}"`);
  expect(await store.keys()).toEqual(before);
  const files = await fetch(`${service.baseUrl}/upload/files`, { headers: { Authorization: `Bearer ${jwt}` } });
  expect(((await files.json()) as { results: unknown[] }).results).toEqual([]);

  // With the bucket well again, the same photo is stored whole, and stays.
  store.refuse(null);
  const uploaded = await uploadPhoto(service.baseUrl, jwt, 'pier-at-noon.jpg', await jpegPhoto(2400, 1600, 90));
  const keys = await store.keys();
  for (const key of ['thumbnail', 'small', 'medium', 'large'])
    expect(keys.some((object) => object.includes(`${key}_${uploaded.hash}`))).toBe(true);
  expect(keys.some((object) => object.includes(uploaded.hash))).toBe(true);
}, 180_000);
