// @same-on-every-store: an upload the bucket cannot take is refused before its record is written (not run by test:postgres, see jest.config.js)
import { startBucketService, type BucketService } from '../helpers/bucket-service';
import { isContractError } from '../helpers/robustness';
import { jpegPhoto } from '../helpers/service-photos';

/**
 * An upload while the bucket does not answer: a 503 that names the bucket, its address and what
 * failed, with what to check, never a credential; and the service goes on answering.
 */
let bed: BucketService;

beforeAll(async () => {
  bed = await startBucketService('bucket-down');
}, 180_000);

afterAll(async () => {
  await bed?.stop();
});

async function uploadWhileDown(): Promise<{ status: number; body: { data: null; error: { status: number; message: string } } }> {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(await jpegPhoto(400, 300, 30))], { type: 'image/jpeg' }), 'harbour.jpg');
  const response = await fetch(`${bed.service.baseUrl}/upload`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${bed.jwt}` },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as { data: null; error: { status: number; message: string } } };
}

it('answers an upload the bucket cannot take with a 503 naming the bucket and what to check, and keeps answering', async () => {
  await bed.store.pause();
  // The studio's editors see the admin in Indonesian (ADMIN_DEFAULT_LOCALE): so does the failure.
  const inIndonesian = await uploadWhileDown();
  expect(inIndonesian.status).toBe(503);
  expect(isContractError(inIndonesian)).toBe(true);
  expect(inIndonesian.body.error.message).toContain(
    `Foto tidak dapat disimpan: bucket "${bed.store.bucket}" di ${bed.store.endpoint} menjawab`,
  );
  expect(inIndonesian.body.error.message).toMatch(/Pastikan penyimpanan objek berjalan dan dapat dijangkau/);
  expect(inIndonesian.body.error.message).not.toContain(bed.store.env.S3_SECRET_ACCESS_KEY);

  // An editor who chose English in their profile reads it in English.
  const profile = await fetch(`${bed.service.baseUrl}/admin/users/me`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${bed.jwt}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ preferedLanguage: 'en' }),
  });
  expect(profile.status).toBe(200);
  const inEnglish = await uploadWhileDown();
  expect(inEnglish.status).toBe(503);
  expect(inEnglish.body.error.message).toContain(`the bucket "${bed.store.bucket}" at ${bed.store.endpoint} answered`);
  expect(inEnglish.body.error.message).toMatch(/Check that the object storage is running and reachable/);
  expect(inEnglish.body.error.message).not.toContain(bed.store.env.S3_SECRET_ACCESS_KEY);
  expect((await fetch(`${bed.service.baseUrl}/api/artikel`)).status).toBe(200);
}, 120_000);
