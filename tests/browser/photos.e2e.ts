/**
 * A photo's way from the camera to a public page, in a real browser against a production build of
 * the whole service (see support/app.ts), issue 32: an editor uploads a camera JPEG (GPS position,
 * serial number and owner name in its EXIF) through the Media Library's file input and makes it the
 * cover of an article; then a small public page, rendered from `GET /api/artikel/{slug}` as a
 * site's server would render it, shows the photo in a `<picture>` (AVIF, WebP, JPEG), with its
 * BlurHash placeholder painted behind it and the camera line under it. The steps run in order.
 *
 * The placeholder is decoded in the page by the `blurhash` package's own browser build
 * (dist/esm/index.js), served to the page by the test's site server as /blurhash.js, as a site
 * would bundle it: the decoding a visitor's browser does is the one tested.
 *
 * Run with `npx jest --config jest.browser.config.js --runInBand tests/browser/photos.e2e.ts`.
 * Every step keeps a screenshot `photos-<nn>-….png` in tests/browser/artifacts/ (`.failed.png`
 * when it failed), with photos-timings.json and the server's and build's logs.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import sharp from 'sharp';
import { freePort } from '../helpers/ports';
import { CAMERA_EXIF, CAMERA_EXIF_RECORD, endTagReader, privateTagsIn, tagsAt } from '../helpers/photos';
import { onceRendered } from '../helpers/service-photos';
import { createWorkFolder, startProductionApp, stopAllChildren, type ProductionApp } from './support/app';
import { ARTIFACTS, clearArtifacts, expectNotice, openBrowser, stepsWith, type BrowserSession } from './support/session';

const PREFIX = 'photos';
const SETUP_MS = 20 * 60_000; // copy + `npm run build` (45-80 s measured) + start (3-6 s)
/** How long the AVIF and WebP renditions may take after the upload: 2-6 s measured for this photo on 2 busy cores. */
const RENDITIONS_MS = 120_000;

const EDITOR = { firstname: 'Pia', lastname: 'Photographer', email: 'pia@lichtbild.example', password: 'Lichtbild-2026' };
const PHOTO = {
  file: 'sunset-at-situ-patenggang.jpg',
  width: 1500,
  height: 1000,
  alt: 'Sun setting behind the hills over a calm lake',
  caption: 'Situ Patenggang at dusk',
};
const ARTICLE = {
  title: 'Dusk at the crater lake',
  category: 'Landscapes',
  content: 'We waited for the wind to drop. At six the lake went still and the **hills turned violet**.',
};
/** The line a photographer's site writes under a photo, from the record's `exif` (CAMERA_EXIF_RECORD). */
const EXIF_LINE = 'Canon EOS R5 · RF50mm F1.2 L USM · 50 mm · f/2.8 · 1/200 s · ISO 400';

let folder: string | undefined;
let app: ProductionApp | undefined;
let session: BrowserSession | undefined;
let site: http.Server | undefined;
let siteUrl = '';
const walk = { jwt: '', token: '', slug: '', documentId: '' };

const { step, timings } = stepsWith(PREFIX, () => session);

const baseUrl = () => {
  if (!app) throw new Error('the service did not start (see beforeAll)');
  return app.baseUrl;
};

interface PhotoRecord {
  url: string;
  alt: string | null;
  caption: string | null;
  width: number;
  height: number;
  aspect_ratio: number;
  mime: string;
  srcset: string;
  sources: Array<{ type: string; srcset: string }>;
  placeholder: string | null;
  color: string | null;
  exif: typeof CAMERA_EXIF_RECORD | null;
}

interface ArticleRecord {
  slug: string;
  title: string;
  content_html: string;
  cover: PhotoRecord | null;
}

/** What the page's checks read of an <img> and a <canvas> (the test process is compiled without the DOM's types). */
interface Box {
  getBoundingClientRect(): { width: number; height: number };
}
interface ImageNode extends Box {
  currentSrc: string;
  naturalWidth: number;
  naturalHeight: number;
  getAttribute(name: string): string | null;
  parentElement: { querySelectorAll(selector: string): Iterable<{ type: string }> } | null;
}
interface CanvasNode extends Box {
  width: number;
  height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, width: number, height: number): { data: Uint8ClampedArray } };
  nextElementSibling: { tagName: string } | null;
}

/** A plain HTTP call from the test process, as a client of the service would make it; fails on any answer but 2xx. */
async function call<T>(pathname: string, init: RequestInit & { json?: object } = {}): Promise<T> {
  const { json, ...rest } = init;
  const response = await fetch(`${baseUrl()}${pathname}`, {
    ...rest,
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    headers: { ...(json === undefined ? {} : { 'Content-Type': 'application/json' }), ...(rest.headers as Record<string, string>) },
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${rest.method ?? 'GET'} ${pathname}: ${response.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

const readArticle = async (slug: string) => (await call<{ data: ArticleRecord }>(`/api/artikel/${encodeURIComponent(slug)}`)).data;

/**
 * A sunset over a lake, drawn as SVG and encoded by sharp as a camera would write it: a JPEG with
 * CAMERA_EXIF (make, model, lens, exposure, the GPS position, the body's serial, the owner's name).
 * Shapes and gradients rather than a flat colour, so the placeholder has something to blur.
 */
async function cameraJpeg(width: number, height: number): Promise<Buffer> {
  const horizon = Math.round(height * 0.62);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#2b1e5c"/><stop offset="0.55" stop-color="#c0487a"/><stop offset="1" stop-color="#f7a440"/>
    </linearGradient>
    <linearGradient id="lake" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#e08a4a"/><stop offset="1" stop-color="#1d2247"/>
    </linearGradient>
    <radialGradient id="sun"><stop offset="0" stop-color="#fff6c8"/><stop offset="1" stop-color="#ffb347"/></radialGradient>
  </defs>
  <rect width="${width}" height="${horizon}" fill="url(#sky)"/>
  <circle cx="${width * 0.62}" cy="${horizon - height * 0.05}" r="${height * 0.09}" fill="url(#sun)"/>
  <path d="M0 ${horizon} L0 ${horizon - height * 0.14} Q${width * 0.18} ${horizon - height * 0.3} ${width * 0.38} ${horizon - height * 0.1}
    Q${width * 0.55} ${horizon - height * 0.02} ${width * 0.72} ${horizon - height * 0.16} Q${width * 0.88} ${horizon - height * 0.26} ${width} ${horizon - height * 0.12}
    L${width} ${horizon} Z" fill="#3a1f4d"/>
  <rect y="${horizon}" width="${width}" height="${height - horizon}" fill="url(#lake)"/>
  <rect x="${width * 0.57}" y="${horizon + 8}" width="${width * 0.1}" height="${height * 0.25}" fill="#ffd27a" opacity="0.35"/>
</svg>`;
  return sharp(Buffer.from(svg)).withExif(CAMERA_EXIF).jpeg({ quality: 88 }).toBuffer();
}

/** Text for HTML: the article's data is the site's input, never markup. */
const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] as string);

/** "Canon EOS R5 · RF50mm F1.2 L USM · 50 mm · f/2.8 · 1/200 s · ISO 400", leaving out what the photo's record does not know. */
function exifLine(exif: NonNullable<PhotoRecord['exif']>): string {
  return [
    exif.camera,
    exif.lens,
    exif.focal_length === null ? null : `${exif.focal_length} mm`,
    exif.aperture === null ? null : `f/${exif.aperture}`,
    exif.exposure === null ? null : `${exif.exposure} s`,
    exif.iso === null ? null : `ISO ${exif.iso}`,
  ]
    .filter((part) => part !== null)
    .join(' · ');
}

/**
 * The public page of an article as a studio's site would render it on its server from the API's
 * record: the cover twice, once as a visitor sees it while it loads (the placeholder alone, in the
 * photo's colour and shape) and once loaded (the `<picture>` over the placeholder), each with the
 * camera line. The module script paints each `canvas[data-blurhash]` with the package's decode.
 */
function articlePage(article: ArticleRecord): string {
  const cover = article.cover;
  if (!cover) throw new Error(`the article ${article.slug} has no cover`);
  const sizes = '(max-width: 1000px) 100vw, 960px';
  const figure = (loaded: boolean, label: string) => `
    <figure class="photo" data-state="${loaded ? 'loaded' : 'loading'}">
      <div class="frame" style="aspect-ratio: ${cover.aspect_ratio}; background-color: ${escapeHtml(cover.color ?? '#ccc')}">
        <canvas class="placeholder" width="32" height="${Math.max(1, Math.round(32 / cover.aspect_ratio))}"
          data-blurhash="${escapeHtml(cover.placeholder ?? '')}"></canvas>
        ${
          loaded
            ? `<picture>
          ${cover.sources
            .map((source) => `<source type="${escapeHtml(source.type)}" srcset="${escapeHtml(source.srcset)}" sizes="${sizes}">`)
            .join('\n          ')}
          <img src="${escapeHtml(cover.url)}" srcset="${escapeHtml(cover.srcset)}" sizes="${sizes}"
            width="${cover.width}" height="${cover.height}" alt="${escapeHtml(cover.alt ?? '')}" decoding="async">
        </picture>`
            : ''
        }
      </div>
      <figcaption><span class="label">${label}</span> ${escapeHtml(cover.caption ?? '')}
        ${cover.exif ? `<span class="exif">${escapeHtml(exifLine(cover.exif))}</span>` : ''}</figcaption>
    </figure>`;
  return `<!doctype html>
<html lang="id">
<head>
  <meta charset="utf-8">
  <link rel="icon" href="data:,">
  <title>${escapeHtml(article.title)}</title>
  <style>
    body { font: 16px/1.5 system-ui, sans-serif; margin: 24px auto; max-width: 960px; color: #222; }
    .photo { margin: 0 0 24px; }
    .frame { position: relative; width: 100%; overflow: hidden; border-radius: 6px; }
    .frame canvas, .frame img { position: absolute; inset: 0; width: 100%; height: 100%; }
    .frame img { object-fit: cover; }
    figcaption { font-size: 14px; color: #555; margin-top: 6px; }
    .label { font-weight: 600; color: #222; }
    .exif { display: block; font-variant-numeric: tabular-nums; }
    .pair { display: grid; grid-template-columns: 1fr; gap: 8px; }
  </style>
</head>
<body>
  <h1>${escapeHtml(article.title)}</h1>
  <div class="pair">
    ${figure(false, 'While it loads:')}
    ${figure(true, 'Loaded:')}
  </div>
  <article>${article.content_html}</article>
  <script type="module">
    import { decode } from '/blurhash.js';
    for (const canvas of document.querySelectorAll('canvas[data-blurhash]')) {
      const pixels = decode(canvas.dataset.blurhash, canvas.width, canvas.height);
      const context = canvas.getContext('2d');
      const image = context.createImageData(canvas.width, canvas.height);
      image.data.set(pixels);
      context.putImageData(image, 0, 0);
      canvas.dataset.painted = 'true';
    }
  </script>
</body>
</html>`;
}

/** The blurhash package's browser build (an ES module without imports), as a site bundles it. */
const BLURHASH_MODULE = path.join(path.dirname(require.resolve('blurhash/package.json')), 'dist', 'esm', 'index.js');

/** The studio's site: renders /articles/{slug} from the service's public API, and serves /blurhash.js. */
async function startSite(): Promise<string> {
  const port = await freePort();
  site = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://site.invalid');
    const slug = /^\/articles\/([a-z0-9-]{1,200})$/.exec(url.pathname)?.[1];
    if (url.pathname === '/blurhash.js') {
      response.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' });
      response.end(fs.readFileSync(BLURHASH_MODULE));
    } else if (slug) {
      readArticle(slug).then(
        (article) => {
          response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
          response.end(articlePage(article));
        },
        (error: Error) => {
          response.writeHead(502, { 'Content-Type': 'text/plain' });
          response.end(error.message);
        },
      );
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => site?.listen(port, '127.0.0.1', resolve));
  return `http://127.0.0.1:${port}`;
}

beforeAll(async () => {
  clearArtifacts(PREFIX);
  folder = createWorkFolder();
  fs.writeFileSync(path.join(folder, PHOTO.file), await cameraJpeg(PHOTO.width, PHOTO.height));
  app = await startProductionApp(folder);
  // The editor (speaking English, which the steps click by) and an API token are the setting, not the subject.
  const registered = await call<{ data: { token: string } }>('/admin/register-admin', { method: 'POST', json: EDITOR });
  const jwt = registered.data.token;
  walk.jwt = jwt;
  await call('/admin/users/me', { method: 'PUT', headers: { Authorization: `Bearer ${jwt}` }, json: { preferedLanguage: 'en' } });
  const created = await call<{ data: { accessKey: string } }>('/admin/api-tokens', {
    method: 'POST',
    headers: { Authorization: `Bearer ${jwt}` },
    json: { name: 'site', description: 'The studio site', type: 'full-access', lifespan: null },
  });
  walk.token = created.data.accessKey;
  siteUrl = await startSite();
  session = await openBrowser(app.baseUrl);
}, SETUP_MS);

afterAll(async () => {
  const report = { buildMs: app?.buildMs, buildReused: app?.buildReused, startMs: app?.startMs, steps: timings };
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  fs.writeFileSync(path.join(ARTIFACTS, `${PREFIX}-timings.json`), `${JSON.stringify(report, null, 2)}\n`);
  console.log(
    timings.map((entry) => `step ${entry.step} ${entry.passed ? 'passed' : 'FAILED'} in ${entry.ms} ms: ${entry.name}`).join('\n'),
  );
  await session?.close();
  await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
  await endTagReader();
  await app?.stop().catch(() => undefined);
  await stopAllChildren();
  if (folder) {
    for (const log of ['server.log', 'build.log']) {
      if (fs.existsSync(path.join(folder, log))) fs.copyFileSync(path.join(folder, log), path.join(ARTIFACTS, `${PREFIX}-${log}`));
    }
    fs.rmSync(folder, { recursive: true, force: true });
  }
}, 60_000);

describe('a camera photo from the Media Library to a public page', () => {
  step(
    'an editor uploads a camera JPEG through the Media Library and it is stored without its GPS position, serial or owner',
    120_000,
    async (page) => {
      await page.goto(`${baseUrl()}/admin/auth/login`);
      await page.locator('input[name="email"]').fill(EDITOR.email);
      await page.locator('input[name="password"]').fill(EDITOR.password);
      await page.getByRole('button', { name: 'Login' }).click();
      await page.getByRole('heading', { name: `Hello ${EDITOR.firstname}`, level: 1 }).waitFor();

      await page.getByRole('link', { name: 'Media Library' }).click();
      await page.getByRole('heading', { name: /^Home \(\d+ items?\)$/, level: 1 }).waitFor();
      await page.getByRole('button', { name: 'New' }).click();
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        page.getByRole('menuitem', { name: 'File upload', exact: true }).click(),
      ]);
      await chooser.setFiles(path.join(folder ?? '', PHOTO.file));
      const uploaded = page.getByRole('dialog', { name: 'Upload successful!' });
      await uploaded.getByText('1 file uploaded successfully').waitFor({ timeout: 60_000 });
      await uploaded.getByRole('button', { name: 'Close' }).click();

      await page.getByRole('button', { name: PHOTO.file, exact: true }).click();
      const details = page.getByRole('dialog').filter({ has: page.getByRole('heading', { name: PHOTO.file, level: 2 }) });
      await details.getByRole('textbox', { name: 'Caption' }).fill(PHOTO.caption);
      await details.getByRole('textbox', { name: 'Alternative text' }).fill(PHOTO.alt);
      await details.getByRole('button', { name: 'Save changes' }).click();
      await details.getByRole('status').filter({ hasText: 'File updated' }).waitFor();
      // Closing before the form has taken the saved values asks whether to drop "modifications".
      await details.getByRole('button', { name: 'Save changes' }).and(page.locator(':disabled')).waitFor();
      await details.getByRole('button', { name: 'Close' }).first().click();
      await details.waitFor({ state: 'detached' });

      // The stored original and its sizes, read back as anyone can fetch them: the camera's GPS, serial and owner are gone.
      const files = await call<{ results: Array<{ name: string; url: string; formats: Record<string, { url: string }> }> }>(
        '/upload/files?sort=createdAt:DESC',
        { headers: { Authorization: `Bearer ${walk.jwt}` } },
      );
      const file = files.results.find((result) => result.name === PHOTO.file);
      if (!file) throw new Error(`the Media Library lists no ${PHOTO.file}`);
      for (const url of [file.url, ...Object.values(file.formats).map((format) => format.url)]) {
        expect({ url, private: privateTagsIn(await tagsAt(new URL(url, baseUrl()).toString())) }).toEqual({ url, private: [] });
      }
    },
  );

  step('the photo becomes the cover of an article the editor publishes from its edit view', 120_000, async (page) => {
    const created = await call<{ data: { id: string; slug: string } }>('/api/artikel', {
      method: 'POST',
      headers: { Authorization: `Bearer ${walk.token}` },
      json: ARTICLE,
    });
    walk.slug = created.data.slug;
    walk.documentId = created.data.id;

    await page.goto(`${baseUrl()}/admin/content-manager/collection-types/api::article.article/${walk.documentId}`);
    await page.getByRole('heading', { name: ARTICLE.title, level: 1 }).waitFor();
    await page
      .getByRole('region', { name: 'Cover photo', exact: true })
      .getByRole('button', { name: /^Click to add an asset/ })
      .click();
    const picker = page.getByRole('dialog', { name: 'Add new assets' });
    await picker.getByRole('checkbox', { name: PHOTO.file, exact: true }).check();
    await picker.getByRole('button', { name: 'Finish' }).click();
    await picker.waitFor({ state: 'detached' });
    await page.getByRole('region', { name: 'Cover photo', exact: true }).getByRole('img', { name: PHOTO.alt }).waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await expectNotice(page, 'Saved document');
    await page.getByRole('button', { name: 'Publish' }).click();
    await expectNotice(page, 'Published document');
    await page.getByRole('region', { name: 'Cover photo', exact: true }).scrollIntoViewIfNeeded(); // for the screenshot

    const cover = (await readArticle(walk.slug)).cover;
    expect(cover).toMatchObject({
      alt: PHOTO.alt,
      caption: PHOTO.caption,
      width: PHOTO.width,
      height: PHOTO.height,
      mime: 'image/jpeg',
      exif: CAMERA_EXIF_RECORD,
      placeholder: expect.any(String),
      color: expect.stringMatching(/^#[0-9a-f]{6}$/),
    });
    expect(cover?.aspect_ratio).toBeCloseTo(PHOTO.width / PHOTO.height, 3);
  });

  step(
    'a public page renders it as a <picture>: the browser loads the AVIF, over the BlurHash placeholder, with the camera line',
    RENDITIONS_MS + 60_000,
    async (page) => {
      // The AVIF and WebP renditions are made after the upload answered: the page is rendered once they are there.
      const { cover } = await onceRendered(() => readArticle(walk.slug), RENDITIONS_MS);
      expect(cover?.sources.map((source) => source.type)).toEqual(['image/avif', 'image/webp', 'image/jpeg']);

      const images: Array<{ url: string; type: string | undefined }> = [];
      page.on('response', (response) => {
        if (response.request().resourceType() === 'image') images.push({ url: response.url(), type: response.headers()['content-type'] });
      });
      await page.setViewportSize({ width: 1100, height: 900 });
      await page.goto(`${siteUrl}/articles/${walk.slug}`);
      const loaded = page.locator('figure[data-state="loaded"]');
      const img = loaded.locator('picture img');
      await img.waitFor();
      // A string, as the test process has no DOM types; the page's image counts once decoded (naturalWidth > 0).
      await page.waitForFunction(
        `(() => { const image = document.querySelector('figure[data-state="loaded"] picture img'); return image !== null && image.complete && image.naturalWidth > 0; })()`,
      );
      await page.locator('canvas[data-painted="true"]').nth(1).waitFor({ state: 'attached' });

      const shown = await img.evaluate((image: ImageNode) => ({
        currentSrc: image.currentSrc,
        naturalWidth: image.naturalWidth,
        naturalHeight: image.naturalHeight,
        width: image.getAttribute('width'),
        height: image.getAttribute('height'),
        boxRatio: image.getBoundingClientRect().width / image.getBoundingClientRect().height,
        sources: [...(image.parentElement?.querySelectorAll('source') ?? [])].map((source) => source.type),
      }));
      // Chromium takes the first type it supports, AVIF, at the width the layout needs (960 CSS px: the 1000 px rendition).
      expect(shown.currentSrc).toMatch(new RegExp(`^${baseUrl().replace(/[.]/g, '\\.')}/uploads/avif_large_[^/]+\\.avif$`));
      // naturalWidth is the candidate's width over its density (1000 px for 960 CSS px): 960, a decoded image.
      expect(shown.naturalWidth).toBeGreaterThan(0);
      expect(shown.naturalWidth / shown.naturalHeight).toBeCloseTo(PHOTO.width / PHOTO.height, 1);
      const chosen = await sharp(Buffer.from(await (await fetch(shown.currentSrc)).arrayBuffer())).metadata();
      expect([chosen.format, chosen.width, chosen.height]).toEqual(['heif', 1000, 667]);
      expect([shown.width, shown.height]).toEqual([String(PHOTO.width), String(PHOTO.height)]);
      expect(shown.boxRatio).toBeCloseTo(PHOTO.width / PHOTO.height, 1);
      expect(shown.sources).toEqual(['image/avif', 'image/webp', 'image/jpeg']);
      expect(images).toContainEqual({ url: shown.currentSrc, type: 'image/avif' });
      // Only the AVIF: a browser that takes AVIF fetches no WebP or JPEG of the photo.
      expect(images.filter((image) => image.url.startsWith(baseUrl()))).toHaveLength(1);

      // The placeholder is painted behind the photo, in the photo's colours (a sunset: warm, not grey or blank).
      const placeholders = await page.locator('canvas[data-blurhash]').evaluateAll((canvases: CanvasNode[]) =>
        canvases.map((canvas) => {
          const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
          const at = (x: number, y: number) => [...data.slice((y * canvas.width + x) * 4, (y * canvas.width + x) * 4 + 4)];
          const box = canvas.getBoundingClientRect();
          return {
            top: at(16, 2),
            bottom: at(16, canvas.height - 2),
            width: box.width,
            height: box.height,
            behind: canvas.nextElementSibling?.tagName ?? null,
          };
        }),
      );
      expect(placeholders).toHaveLength(2);
      for (const placeholder of placeholders) {
        expect(placeholder.top[3]).toBe(255);
        expect(placeholder.width / placeholder.height).toBeCloseTo(PHOTO.width / PHOTO.height, 1);
        // The sky's violet at the top, the lake's dark blue at the bottom: the photo's shapes, blurred.
        expect(placeholder.top[2]).toBeGreaterThan(placeholder.top[1]);
        expect(placeholder.top).not.toEqual(placeholder.bottom);
      }
      expect(placeholders[1].behind).toBe('PICTURE');

      const lines = await page.locator('.exif').allInnerTexts();
      expect(lines).toEqual([EXIF_LINE, EXIF_LINE]);
      await page.screenshot({ path: path.join(ARTIFACTS, `${PREFIX}-page.png`), fullPage: true });
    },
  );
});
