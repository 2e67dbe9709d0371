// @same-on-every-store: a hostile file's metadata is read and cleaned from its bytes, before its record is stored (not run by test:postgres, see jest.config.js)
import sharp from 'sharp';
import type { Editor } from '../helpers/admin';
import { ARTICLE_UID, createCategory } from '../helpers/fixtures';
import { appForPhotoTests, CAMERA_EXIF, photoFile, privateTagsIn, tagsOfServedFile, type UploadedFile } from '../helpers/photos';
import type { TestApp } from '../helpers/strapi';

let app: TestApp;
let editor: Editor;
const uploaded = appForPhotoTests((started, signedIn) => {
  app = started;
  editor = signedIn;
});

/** A JPEG with `segment` (an APP1 payload) written right after its start marker, as a hostile file would carry it. */
async function jpegWithApp1(payload: Buffer): Promise<Buffer> {
  const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 10, g: 200, b: 90 } } })
    .jpeg()
    .toBuffer();
  const length = Buffer.alloc(2);
  length.writeUInt16BE(payload.length + 2);
  return Buffer.concat([jpeg.subarray(0, 2), Buffer.from([0xff, 0xe1]), length, payload, jpeg.subarray(2)]);
}

async function post(name: string, bytes: Buffer, mime = 'image/jpeg') {
  const response = await editor.signed(app.api().post('/upload')).attach('files', bytes, { filename: name, contentType: mime });
  if (response.status === 201) uploaded.push(...(response.body as UploadedFile[]).map((file) => file.id));
  return response;
}

describe('hostile photo metadata', () => {
  it('stores a JPEG whose EXIF block is garbage, without a 5xx, and serves it without metadata', async () => {
    const garbage = Buffer.concat([Buffer.from('Exif\0\0II*\0', 'binary'), Buffer.alloc(3000, 0xab)]);
    const response = await post('garbage-exif.jpg', await jpegWithApp1(garbage));
    expect(response.status).toBe(201);
    const [file] = response.body as UploadedFile[];
    for (const url of [file.url, ...Object.values(file.formats ?? {}).map((format) => format.url)]) {
      expect(privateTagsIn(await tagsOfServedFile(app, url))).toEqual([]);
    }
  }, 60_000);

  it('keeps no camera name longer than a name, nor control characters, from a hostile file', async () => {
    const bytes = await photoFile('jpeg', 800, 600, [120, 120, 120], {
      ...CAMERA_EXIF,
      IFD0: { Make: 'Evil', Model: `Model ${'x'.repeat(5000)}`, Artist: 'A' },
      IFD2: { ...CAMERA_EXIF.IFD2, LensModel: 'Lens\u0007\u001b[31mRed' },
    });
    const response = await post('hostile-names.jpg', bytes);
    expect(response.status).toBe(201);
    const [file] = response.body as UploadedFile[];
    const category = await createCategory(app.strapi, 'Hostile', 'hostile');
    await app.strapi.documents(ARTICLE_UID).create({
      data: { title: 'Hostile names', slug: 'hostile-names', content: 'x', category, cover: file.id },
      status: 'published',
    });
    const exif = (await app.api().get('/api/artikel/hostile-names').expect(200)).body.data.cover.exif as Record<string, unknown>;
    // The model is no name (5,000 characters): the make alone names the camera.
    expect(exif.camera).toBe('Evil');
    expect(exif.lens).toBe('Lens[31mRed');
    expect(exif.iso).toBe(400);
  }, 60_000);

  it('refuses a file that says it is a JPEG but is not an image with a 4xx that says so, storing nothing', async () => {
    const before = await app.strapi.db.query('plugin::upload.file').count();
    const response = await post(
      'not-a-photo.jpg',
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0x00, 0x10]), Buffer.from('Exif\0\0 not an image at all')]),
    );
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect((response.body as { error: { message: string } }).error.message).toMatch(/cannot be read as an image/);
    expect(await app.strapi.db.query('plugin::upload.file').count()).toBe(before);
  }, 60_000);
});
