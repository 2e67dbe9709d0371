import { decode } from 'blurhash';
import sharp from 'sharp';
import { ARTICLE_UID, createCategory } from '../helpers/fixtures';
import type { Editor } from '../helpers/admin';
import {
  appForPhotoTests,
  CAMERA_EXIF_RECORD,
  MIME,
  photoFile,
  privateTagsIn,
  tagsOfServedFile,
  uploadPhoto,
  type PhotoFormat,
} from '../helpers/photos';
import type { TestApp } from '../helpers/strapi';
import { onceRendered } from '../helpers/service-photos';

let app: TestApp;
let editor: Editor;
let category: string;
const uploaded = appForPhotoTests((started, signedIn) => {
  app = started;
  editor = signedIn;
});

beforeAll(async () => {
  category = await createCategory(app.strapi, 'Portraits', 'portraits');
});

interface PhotoRecord {
  url: string;
  width: number;
  height: number;
  aspect_ratio: number;
  mime: string;
  srcset: string;
  formats: Array<{ name: string }>;
  sources: Array<{ type: string; srcset: string }>;
  placeholder: string | null;
  color: string | null;
  exif: Record<string, unknown> | null;
}

interface ArticleRecord {
  cover: PhotoRecord;
  gallery: PhotoRecord[];
}

async function upload(name: string, format: PhotoFormat, width: number, height: number, rgb?: [number, number, number], exif = true) {
  const bytes = await photoFile(format, width, height, rgb, exif ? undefined : null);
  const file = await uploadPhoto(app, editor, name, bytes, MIME[format]);
  uploaded.push(file.id);
  return file;
}

async function publish(slug: string, cover: number, gallery: number[], extra: Record<string, unknown> = {}): Promise<void> {
  await app.strapi.documents(ARTICLE_UID).create({
    data: { title: `Photos ${slug}`, slug, content: 'Portraits at home.', category, cover, gallery, ...extra },
    status: 'published',
  });
}

const read = async (slug: string) => (await app.api().get(`/api/artikel/${slug}`).expect(200)).body.data as ArticleRecord;

/** The article once its photos' AVIF and WebP renditions are made, which happens after the upload answered. */
const readWithRenditions = (slug: string): Promise<ArticleRecord> => onceRendered(() => read(slug));

/** Each candidate of a srcset: its URL and the width it claims. */
const candidates = (srcset: string) =>
  srcset.split(', ').map((candidate) => {
    const [url, width] = candidate.split(' ');
    return { url, width: Number(width.replace(/w$/, '')) };
  });

async function fetched(url: string): Promise<{ type: string | null; bytes: Buffer }> {
  const response = await fetch(new URL(url, await app.baseUrl()));
  expect(response.status).toBe(200);
  return { type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('photo records', () => {
  it('gives the cover and each gallery photo its camera data, a BlurHash of its shape, its colour and AVIF and WebP sources', async () => {
    const cover = await upload('family.jpg', 'jpeg', 1600, 1000, [200, 120, 40]);
    const portrait = await upload('child.jpg', 'jpeg', 900, 1350, [30, 80, 190]);
    await publish('family-at-home', cover.id, [portrait.id]);

    const article = await readWithRenditions('family-at-home');
    const expected: Array<[PhotoRecord, number, number, [number, number, number]]> = [
      [article.cover, 1600, 1000, [200, 120, 40]],
      [article.gallery[0], 900, 1350, [30, 80, 190]],
    ];
    for (const [photo, width, height, rgb] of expected) {
      expect(photo.exif).toEqual(CAMERA_EXIF_RECORD);
      expect(photo.aspect_ratio).toBeCloseTo(width / height, 3);

      // The colour is the photo's (within the gradient the test painted over it).
      expect(photo.color).toMatch(/^#[0-9a-f]{6}$/);
      const channels = [1, 3, 5].map((at) => parseInt((photo.color as string).slice(at, at + 2), 16));
      channels.forEach((channel, index) => expect(Math.abs(channel - rgb[index])).toBeLessThan(24));

      // The placeholder decodes, at the photo's shape, to pixels of about its colour.
      const decodedWidth = 32;
      const decodedHeight = Math.round(decodedWidth / (photo.aspect_ratio as number));
      const pixels = decode(photo.placeholder as string, decodedWidth, decodedHeight);
      expect(pixels).toHaveLength(decodedWidth * decodedHeight * 4);
      const middle = (Math.floor(decodedHeight / 2) * decodedWidth + decodedWidth / 2) * 4;
      [0, 1, 2].forEach((index) => expect(Math.abs(pixels[middle + index] - rgb[index])).toBeLessThan(32));

      // Sources in the order a <picture> tries them; each candidate decodes as its type, at the width it claims.
      expect(photo.sources.map((source) => source.type)).toEqual(['image/avif', 'image/webp', 'image/jpeg']);
      expect(photo.sources[2].srcset).toBe(photo.srcset);
      expect(photo.formats.map((format) => format.name)).toEqual(['thumbnail', 'small', 'medium', 'large']);
      for (const source of photo.sources.slice(0, 2)) {
        const widths = candidates(source.srcset).map((candidate) => candidate.width);
        expect(widths).toEqual([...widths].sort((a, b) => a - b));
        for (const candidate of candidates(source.srcset)) {
          const file = await fetched(candidate.url);
          expect(file.type).toBe(source.type);
          const metadata = await sharp(file.bytes).metadata();
          expect(metadata.format).toBe(source.type === 'image/avif' ? 'heif' : 'webp');
          expect(metadata.width).toBe(candidate.width);
          expect(Math.abs((metadata.width as number) / (metadata.height as number) - width / height)).toBeLessThan(0.01);
          expect(privateTagsIn(await tagsOfServedFile(app, candidate.url))).toEqual([]);
        }
      }
    }

    // Lists show the same photo record.
    const listed = (await app.api().get('/api/artikel?kategori=portraits').expect(200)).body.data as Array<{
      slug: string;
      cover: PhotoRecord;
    }>;
    expect(listed.find((item) => item.slug === 'family-at-home')?.cover).toEqual(article.cover);
  }, 240_000);

  it('makes AVIF and WebP renditions of PNG and WebP uploads too, the original type last', async () => {
    const png = await upload('studio.png', 'png', 1200, 800, [90, 160, 90]);
    const webp = await upload('studio.webp', 'webp', 1200, 800, [160, 90, 160]);
    await publish('studio-formats', png.id, [webp.id]);
    const article = await readWithRenditions('studio-formats');
    expect(article.cover.sources.map((source) => source.type)).toEqual(['image/avif', 'image/webp', 'image/png']);
    expect(article.gallery[0].sources.map((source) => source.type)).toEqual(['image/avif', 'image/webp']);
    expect(article.gallery[0].sources[1].srcset).toBe(article.gallery[0].srcset);
  }, 240_000);

  it('shows exif null for a photo whose file says nothing about its camera', async () => {
    const plain = await upload('plain.jpg', 'jpeg', 800, 600, [100, 100, 100], false);
    await publish('plain-photo', plain.id, []);
    const article = await read('plain-photo');
    expect(article.cover.exif).toBeNull();
    expect(article.cover.placeholder).toEqual(expect.any(String));
  }, 120_000);

  it('hides the camera data of every photo of an article whose editor chose to hide it', async () => {
    const cover = await upload('hidden.jpg', 'jpeg', 800, 600);
    const gallery = await upload('hidden-2.jpg', 'jpeg', 800, 600);
    await publish('hidden-exif', cover.id, [gallery.id], { hide_exif: true });
    const article = await read('hidden-exif');
    expect(article.cover.exif).toBeNull();
    expect(article.gallery[0].exif).toBeNull();
    expect(article.cover.placeholder).toEqual(expect.any(String));
  }, 120_000);

  it('deletes every rendition from storage when the photo is deleted in the Media Library', async () => {
    const file = await upload('short-lived.jpg', 'jpeg', 1200, 800);
    await publish('short-lived', file.id, []);
    const article = await readWithRenditions('short-lived');
    const urls = [
      article.cover.url,
      ...article.cover.sources.flatMap((source) => candidates(source.srcset).map((candidate) => candidate.url)),
    ];
    await editor.del(`/upload/files/${file.id}`).expect(200);
    for (const url of urls) {
      const response = await fetch(new URL(url, await app.baseUrl()));
      expect({ url, status: response.status }).toEqual({ url, status: 404 });
    }
  }, 240_000);
});
