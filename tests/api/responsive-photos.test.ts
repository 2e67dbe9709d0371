import { ARTICLE_UID, createCategory } from '../helpers/fixtures';
import { registerEditor, type Editor } from '../helpers/admin';
import { jpegPhoto, onceRendered } from '../helpers/service-photos';
import { startStrapi, type TestApp } from '../helpers/strapi';

let app: TestApp;
let editor: Editor;
const uploaded: number[] = [];

beforeAll(async () => {
  app = await startStrapi();
  editor = await registerEditor(app);
});

afterAll(async () => {
  // The Media Library writes into public/uploads: the test's files go with it.
  const upload = app.strapi.plugin('upload').service('upload') as { remove: (file: unknown) => Promise<void> };
  for (const id of uploaded) {
    const file = await app.strapi.db.query('plugin::upload.file').findOne({ where: { id } });
    if (file) await upload.remove(file);
  }
  await app.stop();
});

/** Uploads through the Media Library's own route, as the admin's upload dialog does. */
async function upload(
  name: string,
  width: number,
  height: number,
  hue: number,
): Promise<{ id: number; formats: Record<string, { width: number }> }> {
  const response = await editor
    .signed(app.api().post('/upload'))
    .attach('files', await jpegPhoto(width, height, hue), { filename: name, contentType: 'image/jpeg' })
    .expect(201);
  const [file] = response.body as Array<{ id: number; formats: Record<string, { width: number }> }>;
  uploaded.push(file.id);
  return file;
}

interface Photo {
  url: string;
  width: number;
  height: number;
  mime: string;
  formats: Array<{ name: string; url: string; width: number; height: number; mime: string }>;
  srcset: string;
  sources: Array<{ type: string; srcset: string }>;
}

function expectResponsive(image: Photo, originalWidth: number): void {
  expect(image.width).toBe(originalWidth);
  expect(image.mime).toBe('image/jpeg');
  expect(image.formats.map((format) => format.name)).toEqual(['thumbnail', 'small', 'medium', 'large']);
  const widths = image.formats.map((format) => format.width);
  expect([...widths].sort((a, b) => a - b)).toEqual(widths);
  for (const format of image.formats) {
    expect(format.width).toBeLessThan(originalWidth);
    expect(format.url).toMatch(/^\/uploads\/\w+_[\w-]+\.jpg$/);
    expect(format.mime).toBe('image/jpeg');
    expect(Math.abs(format.width / format.height - image.width / image.height)).toBeLessThan(0.02);
  }
  expect(image.srcset).toBe(
    [...image.formats.map((format) => `${format.url} ${format.width}w`), `${image.url} ${originalWidth}w`].join(', '),
  );
}

describe('responsive photos', () => {
  it('generates the smaller formats for uploads by default', async () => {
    const settings = await editor.get('/upload/settings').expect(200);
    expect(settings.body.data).toMatchObject({ responsiveDimensions: true });
  });

  it('gives the cover and every gallery photo their generated formats and a ready srcset, in the article and in lists', async () => {
    const cover = await upload('harbour-cover.jpg', 1600, 1067, 40);
    const gallery = [await upload('harbour-1.jpg', 1200, 1600, 120), await upload('harbour-2.jpg', 1400, 900, 200)];
    expect(Object.keys(cover.formats).sort()).toEqual(['large', 'medium', 'small', 'thumbnail']);
    const category = await createCategory(app.strapi, 'Harbours', 'harbours');
    await app.strapi.documents(ARTICLE_UID).create({
      data: {
        title: 'Harbour at blue hour',
        slug: 'harbour',
        content: 'Boats.',
        category,
        cover: cover.id,
        gallery: gallery.map((file) => file.id),
      },
      status: 'published',
    });

    // Read once the AVIF and WebP renditions (made after the uploads answered) are in, so the list read after it shows the same photos.
    const article = await onceRendered(
      async () =>
        (await app.api().get('/api/artikel/harbour').expect(200)).body.data as {
          cover: Photo;
          cover_image_url: string;
          gallery: Photo[];
          json_ld: string;
        },
    );
    expectResponsive(article.cover, 1600);
    expect(article.cover_image_url).toBe(article.cover.url);
    expect(article.gallery).toHaveLength(2);
    expectResponsive(article.gallery[0], 1200);
    expectResponsive(article.gallery[1], 1400);
    expect((JSON.parse(article.json_ld) as { image: Array<{ contentUrl: string }> }).image.map((image) => image.contentUrl)).toEqual([
      article.cover.url,
      ...article.gallery.map((image) => image.url),
    ]);

    const listed = (await app.api().get('/api/artikel?kategori=harbours').expect(200)).body.data[0] as { cover: Photo };
    expect(listed.cover).toEqual(article.cover);
  });

  it('takes six photos dropped together, one after the other, each with every size and its renditions', async () => {
    const together = await Promise.all([10, 60, 110, 160, 210, 260].map((hue, n) => upload(`card-${n + 1}.jpg`, 1600, 1200, hue)));
    for (const file of together) expect(Object.keys(file.formats).sort()).toEqual(['large', 'medium', 'small', 'thumbnail']);
    const category = await createCategory(app.strapi, 'Cards', 'cards');
    await app.strapi.documents(ARTICLE_UID).create({
      data: { title: 'A whole card', slug: 'a-whole-card', content: 'Six photos.', category, gallery: together.map((file) => file.id) },
      status: 'published',
    });
    const article = await onceRendered(
      async () => (await app.api().get('/api/artikel/a-whole-card').expect(200)).body.data as { cover: null; gallery: Photo[] },
    );
    expect(article.gallery).toHaveLength(6);
    for (const photo of article.gallery)
      expect(photo.sources.map((source) => source.type)).toEqual(['image/avif', 'image/webp', 'image/jpeg']);
  }, 300_000);

  it('leaves cover null for an article whose cover is only a linked URL', async () => {
    const category = await createCategory(app.strapi, 'Links', 'links');
    await app.strapi.documents(ARTICLE_UID).create({
      data: { title: 'Linked', slug: 'linked', content: 'x', category, cover_image_url: 'https://cdn.example/x.jpg' },
      status: 'published',
    });
    const article = (await app.api().get('/api/artikel/linked').expect(200)).body.data;
    expect(article.cover).toBeNull();
    expect(article.cover_image_url).toBe('https://cdn.example/x.jpg');
  });
});
