import { startStrapi, type TestApp } from '../helpers/strapi';

let app: TestApp;
let base: string;
let slug: string;

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: true });
  const created = await app
    .api()
    .post('/api/artikel')
    .set(app.auth())
    .send({ title: 'Harbour at night', category: 'Studio', content: 'Lanterns on the water.' })
    .expect(201);
  slug = created.body.data.slug as string;
  base = await app.baseUrl();
});

afterAll(async () => {
  await app.stop();
});

/** A revalidation as a browser or front end makes it: Node's own fetch(), which sends Cache-Control: no-cache with If-None-Match. */
const revalidate = (path: string, tag: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { headers: { 'If-None-Match': tag, ...headers } });

const READS = [
  '/api/artikel',
  '/api/artikel?q=lanterns',
  '/api/artikel/latest',
  '/api/artikel/categories',
  '/api/artikel/feed/rss',
  '/api/artikel/sitemap.xml',
  '/api/artikel/openapi.json',
  '/api/artikel/llms.txt',
  '/api/artikel/docs/redoc.standalone.js',
];

describe('revalidation with fetch()', () => {
  it.each(READS)('%s answers 304 without a body to fetch() holding its ETag, whatever its Cache-Control says', async (path) => {
    const first = await fetch(`${base}${path}`);
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    const tag = first.headers.get('etag') as string;
    expect(tag).toMatch(/^"/);
    const variants: Array<Record<string, string>> = [
      {},
      { 'Cache-Control': 'no-cache' },
      { 'Cache-Control': 'no-cache', Pragma: 'no-cache' },
    ];
    for (const headers of variants) {
      const again = await revalidate(path, tag, headers);
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      expect(again.headers.get('etag')).toBe(tag);
    }
  });

  it('an article revalidated by fetch() gets a 304 that counts its view, like a 200', async () => {
    const first = await fetch(`${base}/api/artikel/${slug}`);
    const { data } = (await first.json()) as { data: { views: number } };
    const tag = first.headers.get('etag') as string;
    const again = await revalidate(`/api/artikel/${slug}`, tag);
    expect(again.status).toBe(304);
    const after = (await (await fetch(`${base}/api/artikel/${slug}`)).json()) as { data: { views: number } };
    expect(after.data.views).toBe(data.views + 2);
  });

  it('matches a weak form of the tag and *, and sends the whole answer for another tag or a malformed header', async () => {
    const first = await fetch(`${base}/api/artikel/latest`);
    await first.arrayBuffer();
    const tag = first.headers.get('etag') as string;
    expect((await revalidate('/api/artikel/latest', `W/${tag}`)).status).toBe(304);
    expect((await revalidate('/api/artikel/latest', `"other", ${tag}`)).status).toBe(304);
    expect((await revalidate('/api/artikel/latest', '*')).status).toBe(304);
    for (const other of ['"not-the-tag"', 'not a tag', `${tag.slice(0, -1)}`]) {
      const answer = await revalidate('/api/artikel/latest', other);
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    }
  });

  it('sends the new answer after a write changed it', async () => {
    const first = await fetch(`${base}/api/artikel`);
    await first.arrayBuffer();
    const tag = first.headers.get('etag') as string;
    await app.api().post('/api/artikel').set(app.auth()).send({ title: 'Boats at dawn', category: 'Studio', content: 'Mist.' }).expect(201);
    const again = await revalidate('/api/artikel', tag);
    expect(again.status).toBe(200);
    expect(again.headers.get('etag')).not.toBe(tag);
  });
});
