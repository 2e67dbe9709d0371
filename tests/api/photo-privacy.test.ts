// @same-on-every-store: what is cleaned is the bytes of the files served, not their records (not run by test:postgres, see jest.config.js)
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Editor } from '../helpers/admin';
import {
  appForPhotoTests,
  everyMediaLibrarySetting,
  MIME,
  photoFile,
  privateTagsIn,
  setMediaLibrary,
  tagsOfServedFile,
  uploadPhoto,
  type PhotoFormat,
  type UploadedFile,
} from '../helpers/photos';
import type { TestApp } from '../helpers/strapi';

let app: TestApp;
let editor: Editor;
const uploaded = appForPhotoTests((started, signedIn) => {
  app = started;
  editor = signedIn;
});

async function upload(name: string, format: PhotoFormat, width = 1200, height = 800): Promise<UploadedFile> {
  const file = await uploadPhoto(app, editor, name, await photoFile(format, width, height), MIME[format]);
  uploaded.push(file.id);
  return file;
}

/** The URL of the stored file and of every smaller copy Strapi made of it. */
const servedUrls = (file: UploadedFile) => [file.url, ...Object.values(file.formats ?? {}).map((format) => format.url)];

async function privateTagsServed(file: UploadedFile): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const url of servedUrls(file)) {
    const tags = privateTagsIn(await tagsOfServedFile(app, url));
    if (tags.length > 0) found[url] = tags;
  }
  return found;
}

describe('privacy of uploaded photos', () => {
  it.each(everyMediaLibrarySetting())(
    'serves no GPS position, serial number or owner name in a JPEG or any of its formats (%s)',
    async (_label, settings) => {
      await setMediaLibrary(editor, settings);
      const file = await upload('client-home.jpg', 'jpeg');
      expect(await privateTagsServed(file)).toEqual({});
    },
    60_000,
  );

  it.each([
    ['png', true],
    ['png', false],
    ['webp', true],
    ['webp', false],
  ] as Array<[PhotoFormat, boolean]>)(
    'serves no GPS position in a %s upload (size optimization %s)',
    async (format, sizeOptimization) => {
      await setMediaLibrary(editor, { sizeOptimization, responsiveDimensions: true, autoOrientation: false });
      const file = await upload(`client-home.${format === 'jpeg' ? 'jpg' : format}`, format);
      expect(file.mime).toBe(MIME[format]);
      expect(await privateTagsServed(file)).toEqual({});
    },
    60_000,
  );

  it('keeps an original untouched but for its private fields when size optimization is off: same pixels, camera and exposure still in the file', async () => {
    await setMediaLibrary(editor, { sizeOptimization: false, responsiveDimensions: true, autoOrientation: false });
    const bytes = await photoFile('jpeg', 900, 600);
    const file = await uploadPhoto(app, editor, 'untouched.jpg', bytes, 'image/jpeg');
    uploaded.push(file.id);

    const served = Buffer.from(await (await fetch(new URL(file.url, await app.baseUrl()))).arrayBuffer());
    const [sent, stored] = await Promise.all([sharp(bytes).raw().toBuffer(), sharp(served).raw().toBuffer()]);
    expect(stored.equals(sent)).toBe(true);
    const tags = await tagsOfServedFile(app, file.url);
    expect(privateTagsIn(tags)).toEqual([]);
    expect({ make: tags.Make, model: tags.Model, lens: tags.LensModel, aperture: tags.FNumber, iso: tags.ISO }).toEqual({
      make: 'Canon',
      model: 'Canon EOS R5',
      lens: 'RF50mm F1.2 L USM',
      aperture: 2.8,
      iso: 400,
    });
  }, 60_000);

  it('stores a cleaned copy and leaves the file Strapi makes the smaller copies from as it came: cleaning it in place raced their decoding (libpng read error)', async () => {
    // Strapi stores an original while it decodes the same file for its smaller copies (uploadImage's
    // Promise.all), so the provider service is given a file that others read meanwhile.
    const folder = await mkdtemp(join(tmpdir(), 'shared-original-'));
    const path = join(folder, 'original.png');
    const bytes = await photoFile('png', 600, 400);
    await writeFile(path, bytes);
    const upload = app.strapi.plugin('upload');
    const provider = upload.service('provider') as { upload: (file: Record<string, unknown>) => Promise<void> };
    const file: Record<string, unknown> = {
      name: 'original.png',
      hash: `shared_original_${Date.now()}`,
      ext: '.png',
      mime: 'image/png',
      size: bytes.length / 1000,
      sizeInBytes: bytes.length,
      filepath: path,
      getStream: () => createReadStream(path),
    };
    try {
      await provider.upload(file);
      expect((await readFile(path)).equals(bytes)).toBe(true);
      expect(file.filepath).toBe(path);
      expect(privateTagsIn(await tagsOfServedFile(app, String(file.url)))).toEqual([]);
      expect(file.sizeInBytes).toBeLessThan(bytes.length);
    } finally {
      if (typeof file.url === 'string') await (upload.provider as { delete: (file: object) => Promise<void> }).delete(file);
      await rm(folder, { recursive: true, force: true });
    }
  }, 60_000);

  it('strips the private fields of a file that replaces another in the Media Library', async () => {
    await setMediaLibrary(editor, { sizeOptimization: false, responsiveDimensions: true, autoOrientation: false });
    const first = await upload('first.jpg', 'jpeg', 800, 600);
    const response = await editor
      .signed(app.api().post(`/upload?id=${first.id}`))
      .attach('files', await photoFile('jpeg', 1000, 700, [20, 90, 160]), { filename: 'second.jpg', contentType: 'image/jpeg' })
      .expect(200);
    const replaced = response.body as UploadedFile;
    expect(replaced.width).toBe(1000);
    expect(await privateTagsServed(replaced)).toEqual({});
  }, 60_000);
});
