// @same-on-every-store: the limit is read from the image's header and refused before anything is stored (not run by test:postgres, see jest.config.js)
import { registerEditor, type Editor } from '../helpers/admin';
import { heicPhotoFile, photoFile } from '../helpers/photos';
import { startStrapi, type TestApp } from '../helpers/strapi';

/**
 * The pixel limit (ARTIKEL_MAX_MEGAPIXELS, here 1): an image with more pixels is refused with a 400
 * naming the limit, read from its header before anything decodes it, and nothing is stored.
 */
let app: TestApp;
let editor: Editor;

beforeAll(async () => {
  app = await startStrapi({ env: { ARTIKEL_MAX_MEGAPIXELS: '1' } });
  editor = await registerEditor(app);
});

afterAll(() => app?.stop());

const stored = () => app.strapi.db.query('plugin::upload.file').count({});

it('refuses an image over the pixel limit with a 400 naming it, and stores nothing', async () => {
  const before = await stored();
  const answer = await editor
    .signed(app.api().post('/upload'))
    .attach('files', await photoFile('jpeg', 1250, 1000), { filename: 'too-big.jpg', contentType: 'image/jpeg' });
  expect(answer.status).toBe(400);
  expect(answer.body.error.message).toMatch(
    /is 1\.3 megapixels \(1250 × 1000\); the Media Library takes at most 1 megapixels \(ARTIKEL_MAX_MEGAPIXELS\)/,
  );
  expect(await stored()).toBe(before);
});

it('takes an image within the limit', async () => {
  const answer = await editor
    .signed(app.api().post('/upload'))
    .attach('files', await photoFile('png', 1000, 800), { filename: 'fits.png', contentType: 'image/png' });
  expect(answer.status).toBe(201);
  expect(answer.body[0]).toMatchObject({ width: 1000, height: 800 });
});

it('refuses a phone photo (HEIC) over the pixel limit with the same 400, and stores nothing', async () => {
  const photo = await heicPhotoFile(1250, 1000);
  const before = await stored();
  const answer = await editor
    .signed(app.api().post('/upload'))
    .attach('files', photo, { filename: 'IMG_0001.HEIC', contentType: 'image/heic' });
  expect(answer.status).toBe(400);
  expect(answer.body.error.message).toMatch(
    /is 1\.3 megapixels \(1250 × 1000\); the Media Library takes at most 1 megapixels \(ARTIKEL_MAX_MEGAPIXELS\)/,
  );
  expect(await stored()).toBe(before);
}, 120_000);
