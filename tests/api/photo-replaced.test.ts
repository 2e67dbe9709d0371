import sharp from 'sharp';
import { registerEditor, type Editor } from '../helpers/admin';
import { jpegPhoto } from '../helpers/service-photos';
import { startStrapi, type TestApp } from '../helpers/strapi';

/**
 * A photo replaced ("Replace media" in the Media Library) while the renditions of its first
 * version are being made gets the renditions of its new version. Two photos are decoded at once
 * here (ARTIKEL_PHOTO_CONCURRENCY=2, as a second instance would), so the replace lands while the
 * first version's renditions are under way.
 */
let app: TestApp;
let editor: Editor;
let fileId: number | null = null;

beforeAll(async () => {
  app = await startStrapi({ env: { ARTIKEL_PHOTO_CONCURRENCY: '2' } });
  editor = await registerEditor(app);
}, 120_000);

afterAll(async () => {
  const upload = app.strapi.plugin('upload').service('upload') as { remove: (file: unknown) => Promise<void> };
  const file = fileId === null ? null : await app.strapi.db.query('plugin::upload.file').findOne({ where: { id: fileId } });
  if (file) await upload.remove(file);
  await app.stop();
});

/** The mean blue of a stored image (the test photos' blue is their "hue": 30 first, 220 after the replace). */
async function blueOf(url: string): Promise<number> {
  if (url === '') return 0;
  const response = await app
    .api()
    .get(url)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
  if (response.status !== 200) return 0;
  const { channels } = await sharp(response.body as Buffer).stats();
  return channels[2].mean;
}

interface StoredFile {
  id: number;
  hash: string;
  formats: Record<string, { url: string }> | null;
}

it('makes the renditions of the new version of a photo replaced while the first version’s were being made', async () => {
  const uploaded = (
    await editor
      .signed(app.api().post('/upload'))
      .attach('files', await jpegPhoto(2400, 1600, 30), { filename: 'pier.jpg', contentType: 'image/jpeg' })
      .expect(201)
  ).body as StoredFile[];
  fileId = uploaded[0].id;
  const replaced = (
    await editor
      .signed(app.api().post(`/upload?id=${fileId}`))
      .attach('files', await jpegPhoto(2400, 1600, 220), { filename: 'pier-again.jpg', contentType: 'image/jpeg' })
      .expect(200)
  ).body as StoredFile;

  const deadline = Date.now() + 120_000;
  let file: StoredFile;
  for (;;) {
    file = (await editor.get(`/upload/files/${fileId}`).expect(200)).body as StoredFile;
    const renditions = Object.entries(file.formats ?? {}).filter(([key]) => /^(avif|webp)_/.test(key));
    if (renditions.length === 6 && (await blueOf(file.formats?.avif_large?.url ?? '')) > 150) break;
    if (Date.now() > deadline) throw new Error(`the renditions are still of the first version: ${JSON.stringify(file.formats)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(file.hash).toBe(replaced.hash);
}, 300_000);
