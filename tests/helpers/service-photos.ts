import sharp from 'sharp';
import { eventually } from './eventually';

/** A real JPEG photo of the given size, made for the test (a gradient, so every photo's bytes differ by hue). */
export function jpegPhoto(width: number, height: number, hue: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const offset = (y * width + x) * 3;
      pixels[offset] = (x * 255) / width;
      pixels[offset + 1] = (y * 255) / height;
      pixels[offset + 2] = hue;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** A Media Library file as the admin's `/upload` routes answer it. */
export interface UploadedFile {
  id: number;
  hash: string;
  url: string;
  mime: string;
  provider: string;
  formats: Record<string, { url: string; mime?: string }> | null;
}

/** An administrator of a running service (an HTTP address), registered through the first-run form. */
export async function registerAdmin(baseUrl: string, email = 'editor@studio.example'): Promise<string> {
  const response = await fetch(`${baseUrl}/admin/register-admin`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, firstname: 'Eda', lastname: 'Editor', password: 'Editor-Passw0rd' }),
  });
  if (response.status !== 200) throw new Error(`register-admin answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { data: { token: string } }).data.token;
}

/** Uploads one photo through the Media Library's own route, as the admin's upload dialog does. */
export async function uploadPhoto(baseUrl: string, jwt: string, name: string, bytes: Buffer): Promise<UploadedFile> {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), name);
  const response = await fetch(`${baseUrl}/upload`, { method: 'POST', headers: { Authorization: `Bearer ${jwt}` }, body: form });
  if (response.status !== 201) throw new Error(`/upload answered ${response.status}: ${await response.text()}`);
  const [file] = (await response.json()) as UploadedFile[];
  return file;
}

/** Every URL of a file: the original's, then each of its formats' (whatever their names). */
export function everyUrl(file: Pick<UploadedFile, 'url' | 'formats'>): string[] {
  return [file.url, ...Object.values(file.formats ?? {}).map((format) => format.url)];
}

/** Creates and publishes an article with the file as its cover, through the Content Manager's routes. */
export async function publishWithCover(baseUrl: string, jwt: string, title: string, cover: number): Promise<string> {
  const admin = async (route: string, body: object) => {
    const response = await fetch(`${baseUrl}/content-manager/collection-types/${route}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${jwt}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 200 && response.status !== 201)
      throw new Error(`${route} answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { data: { documentId: string; slug: string } }).data;
  };
  const category = await admin('api::category.category', { name: `Photos of ${title}` });
  const draft = await admin('api::article.article', {
    title,
    content: 'Light on the water.',
    category: { connect: [{ documentId: category.documentId }] },
    cover,
  });
  await admin(`api::article.article/${draft.documentId}/actions/publish`, {});
  return draft.slug;
}

/** What a photo of an article's answer says of its sources (AVIF, WebP, the original's type). */
interface PhotoWithSources {
  sources: Array<{ type: string }>;
}

/**
 * The article `read` answers once every photo of it (cover and any gallery) has its AVIF rendition,
 * which is made in the background after the upload answered: read again every 250 ms, for at most
 * `timeoutMs`.
 */
export async function onceRendered<Article extends { cover: PhotoWithSources | null; gallery?: PhotoWithSources[] }>(
  read: () => Promise<Article>,
  timeoutMs = 120_000,
): Promise<Article> {
  const photosOf = (article: Article) =>
    [article.cover, ...(article.gallery ?? [])].filter((photo): photo is PhotoWithSources => photo !== null);
  const rendered = (article: Article) => photosOf(article).every((photo) => photo.sources.some((source) => source.type === 'image/avif'));
  const article = await eventually(read, rendered, { withinMs: timeoutMs });
  if (!rendered(article)) throw new Error(`renditions still missing: ${JSON.stringify(photosOf(article).map((photo) => photo.sources))}`);
  return article;
}
