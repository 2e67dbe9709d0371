import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { ARTICLE_UID, createArticle, storedViews } from '../helpers/fixtures';
import { reportFigure } from '../helpers/robustness';
import { removeServiceDatabase, startServiceProcess } from '../helpers/service-process';
import { startStrapi, type TestApp } from '../helpers/strapi';

let app: TestApp;
let longDocumentId: string;

const paragraph = 'Morning fog lifts from the valley while the light turns from blue to gold over the ridge. ';

beforeAll(async () => {
  app = await startStrapi({ category: { name: 'Landscapes', slug: 'landscapes' } });
  for (let index = 0; index < 50; index += 1) {
    await createArticle(app.strapi, {
      title: `Valley light ${index}`,
      slug: `valley-light-${index}`,
      category: app.categoryId,
      tags: 'Fog, Valley',
      content: paragraph.repeat(3),
    });
  }
  longDocumentId = await createArticle(app.strapi, {
    title: 'A long essay on light',
    slug: 'long-essay',
    category: app.categoryId,
    tags: 'Essay, Fog',
    content: `## Light\n\n${paragraph.repeat(300)}`,
  });
});

afterAll(async () => {
  await app.stop();
});

/** The raw bytes of an answer as they travel (no decoding), with its headers. */
async function raw(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }> {
  const base = await app.baseUrl();
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${url}`, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, bytes: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe('HTTP caching of the public reads', () => {
  it('gives lists, categories and latest a strong ETag and a shared lifetime, and a 304 without a body for a current tag', async () => {
    for (const url of ['/api/artikel?limit=50', '/api/artikel/categories', '/api/artikel/latest', '/api/artikel/openapi.json']) {
      const first = await app.api().get(url).expect(200);
      expect(first.headers.etag).toMatch(/^"[\w-]+"$/);
      expect(first.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=300');
      const again = await app.api().get(url).set('If-None-Match', first.headers.etag).expect(304);
      expect(again.text ?? '').toBe('');
      expect(again.headers.etag).toBe(first.headers.etag);
      await app.api().get(url).set('If-None-Match', '"something-else"').expect(200);
    }
  });

  it('changes the tag of every answer a write affects at once, so no stale copy is confirmed, and keeps the others', async () => {
    // Publishing the change gives the article a new publication date: it is now among the newest.
    const affected = ['/api/artikel?limit=50', '/api/artikel?tag=valley&limit=50', '/api/artikel/valley-light-3', '/api/artikel/latest'];
    const unaffected = ['/api/artikel/categories'];
    const tags = new Map<string, string>();
    for (const url of [...affected, ...unaffected]) tags.set(url, (await app.api().get(url).expect(200)).headers.etag);
    const documentId = (await app.api().get('/api/artikel/valley-light-3').expect(200)).body.data.id;
    await app.strapi.documents(ARTICLE_UID).update({ documentId, data: { title: 'Valley light, retitled' }, status: 'published' });
    await app.strapi.documents(ARTICLE_UID).publish({ documentId });
    for (const url of affected) {
      const after = await app
        .api()
        .get(url)
        .set('If-None-Match', tags.get(url) ?? '')
        .expect(200);
      expect(after.headers.etag).not.toBe(tags.get(url));
    }
    // The category counts do not show titles.
    for (const url of unaffected)
      await app
        .api()
        .get(url)
        .set('If-None-Match', tags.get(url) ?? '')
        .expect(304);
    // A new article changes the lists, latest and the category count.
    await createArticle(app.strapi, { title: 'Fresh fog', slug: 'fresh-fog', category: app.categoryId, content: 'New.' });
    for (const url of [...unaffected, '/api/artikel/latest', '/api/artikel?limit=50']) {
      await app
        .api()
        .get(url)
        .set('If-None-Match', tags.get(url) ?? '')
        .expect(200);
    }
  });

  it('serves an article no-cache, counts a 304 revalidation as a view, and a HEAD as none', async () => {
    const first = await app.api().get('/api/artikel/valley-light-7').expect(200);
    expect(first.headers['cache-control']).toBe('public, no-cache');
    const documentId = first.body.data.id as string;
    const viewsAfterFirst = await storedViews(app.strapi, documentId);
    expect(first.body.data.views).toBe(viewsAfterFirst);

    await app.api().get('/api/artikel/valley-light-7').set('If-None-Match', first.headers.etag).expect(304);
    expect(await storedViews(app.strapi, documentId)).toBe(viewsAfterFirst + 1);

    const head = await app.api().head('/api/artikel/valley-light-7').expect(200);
    expect(head.headers.etag).toBe(first.headers.etag);
    expect(head.headers['cache-control']).toBe('public, no-cache');
    expect(await storedViews(app.strapi, documentId)).toBe(viewsAfterFirst + 1);

    // The 200 after them shows the current count, this read included.
    const latest = await app.api().get('/api/artikel/valley-light-7').expect(200);
    expect(latest.body.data.views).toBe(viewsAfterFirst + 2);
    expect(latest.headers.etag).toBe(first.headers.etag);
  });

  it('answers HEAD of a list with the headers of its GET and no body', async () => {
    const get = await app.api().get('/api/artikel?limit=5').expect(200);
    const head = await app.api().head('/api/artikel?limit=5').expect(200);
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.headers.link).toBe(get.headers.link);
    expect(head.text ?? '').toBe('');
  });

  it('keeps the view count exact through 1,000 mixed 200, 304 and HEAD requests', async () => {
    const url = '/api/artikel/valley-light-11';
    const first = await app.api().get(url).expect(200);
    const documentId = first.body.data.id as string;
    const start = await storedViews(app.strapi, documentId);
    const kinds = Array.from({ length: 1000 }, (_, index) => (['get', 'revalidate', 'head'] as const)[index % 3]);
    const counted = kinds.filter((kind) => kind !== 'head').length;
    const statuses: Record<string, number> = {};
    for (let offset = 0; offset < kinds.length; offset += 25) {
      const answers = await Promise.all(
        kinds
          .slice(offset, offset + 25)
          .map((kind) =>
            kind === 'head'
              ? app.api().head(url)
              : kind === 'revalidate'
                ? app.api().get(url).set('If-None-Match', first.headers.etag)
                : app.api().get(url),
          ),
      );
      for (const answer of answers) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    }
    const revalidations = kinds.filter((kind) => kind === 'revalidate').length;
    expect(statuses).toEqual({ 200: kinds.length - revalidations, 304: revalidations });
    expect(await storedViews(app.strapi, documentId)).toBe(start + counted);
    reportFigure(
      '[http] 1,000 mixed requests of one article',
      `${JSON.stringify(statuses)} (HEAD among the 200s); views rose by ${counted}, exactly the GETs and 304s`,
    );
  });

  it('spares a revalidating client the body: 304s of no bytes instead of the whole list', async () => {
    const first = await raw('/api/artikel?limit=50', { 'Accept-Encoding': 'identity' });
    let notModified = 0;
    let bytes = 0;
    for (let index = 0; index < 100; index += 1) {
      const again = await raw('/api/artikel?limit=50', { 'If-None-Match': String(first.headers.etag) });
      if (again.status === 304) notModified += 1;
      bytes += again.bytes.length;
    }
    expect(notModified).toBe(100);
    expect(bytes).toBe(0);
    reportFigure('[http] revalidating a list of 50, 100 times', `100 × 304, 0 body bytes (a 200 carries ${first.bytes.length} bytes)`);
  });

  it('compresses JSON above 1 KB with brotli or gzip, by Accept-Encoding, and leaves small answers alone', async () => {
    for (const [label, url] of [
      ['list of 50', '/api/artikel?limit=50'],
      ['long article', '/api/artikel/long-essay'],
    ] as const) {
      const plain = await raw(url, { 'Accept-Encoding': 'identity' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      const gzip = await raw(url, { 'Accept-Encoding': 'gzip' });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gzip.headers.vary).toMatch(/Accept-Encoding/i);
      const brotli = await raw(url, { 'Accept-Encoding': 'br, gzip' });
      expect(brotli.headers['content-encoding']).toBe('br');
      // The same JSON after decoding (views aside: the article's reads count).
      const decoded = (bytes: Buffer, decode: (input: Buffer) => Buffer) => JSON.parse(decode(bytes).toString('utf8')) as { data: unknown };
      const withoutViews = (body: { data: unknown }) =>
        JSON.stringify(body.data, (key, value: unknown) => (key === 'views' ? undefined : value));
      expect(withoutViews(decoded(gzip.bytes, zlib.gunzipSync))).toBe(withoutViews(JSON.parse(plain.bytes.toString('utf8'))));
      expect(withoutViews(decoded(brotli.bytes, zlib.brotliDecompressSync))).toBe(withoutViews(JSON.parse(plain.bytes.toString('utf8'))));
      expect(gzip.bytes.length).toBeLessThan(plain.bytes.length / 3);
      reportFigure(
        `[http] compression, ${label}`,
        `${plain.bytes.length} bytes plain, gzip ${gzip.bytes.length} (${(plain.bytes.length / gzip.bytes.length).toFixed(1)}×), brotli ${brotli.bytes.length} (${(plain.bytes.length / brotli.bytes.length).toFixed(1)}×)`,
      );
    }
    const small = await raw('/api/artikel?limit=1&q=nothing-matches-this', { 'Accept-Encoding': 'gzip, br' });
    expect(small.bytes.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(longDocumentId).toBeTruthy();
  });
});

describe('cache lifetimes from the environment', () => {
  it('turn shared caching off with ARTIKEL_CACHE_MAX_AGE=0 and take other values as given', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-cache-env-'));
    const databaseFile = path.join(folder, 'data.db');
    try {
      for (const [env, expected] of [
        [{ ARTIKEL_CACHE_MAX_AGE: '0' }, 'public, no-cache'],
        [{ ARTIKEL_CACHE_MAX_AGE: '120', ARTIKEL_CACHE_STALE_SECONDS: '0' }, 'public, max-age=120'],
      ] as const) {
        const service = await startServiceProcess(databaseFile, env);
        try {
          const response = await fetch(`${service.baseUrl}/api/artikel/categories`);
          expect(response.headers.get('cache-control')).toBe(expected);
          expect(response.headers.get('etag')).toMatch(/^"[\w-]+"$/);
        } finally {
          await service.stop();
        }
      }
    } finally {
      await removeServiceDatabase(databaseFile);
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
