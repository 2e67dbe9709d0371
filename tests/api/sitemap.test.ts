import { XMLParser } from 'fast-xml-parser';
import { createArticle, createMediaFile } from '../helpers/fixtures';
import { startStrapi, type TestApp } from '../helpers/strapi';

const SITE = 'https://studio.example/artikel/{slug}';
let app: TestApp;

beforeAll(async () => {
  app = await startStrapi({
    // Three article pages per file, so seven articles need an index of three files.
    env: { SITE_ARTICLE_URL: SITE, ARTIKEL_SITEMAP_URLS: '3', PUBLIC_URL: 'https://api.studio.example' },
    category: { name: 'Landscapes', slug: 'landscapes' },
  });
  const category = app.categoryId;
  const cover = await createMediaFile(app.strapi, 'dunes-cover.jpg', 800, 600);
  const gallery = [await createMediaFile(app.strapi, 'dunes-1.jpg', 800, 600), await createMediaFile(app.strapi, 'dunes-2.jpg', 800, 600)];
  await app.strapi.documents('api::article.article').create({
    data: { title: 'Dunes at dawn', slug: 'dunes', content: 'Sand.', category, cover, gallery },
    status: 'published',
  });
  await createArticle(app.strapi, {
    title: 'Linked cover',
    slug: 'linked-cover',
    category,
    cover_image_url: 'https://cdn.studio.example/linked.jpg',
  });
  for (let index = 0; index < 5; index += 1) await createArticle(app.strapi, { title: `Plain ${index}`, slug: `plain-${index}`, category });
  await createArticle(app.strapi, { title: 'Unseen draft', slug: 'unseen-draft', category, status: 'draft' });
});

afterAll(async () => {
  await app.stop();
});

const xml = new XMLParser({ ignoreAttributes: false, isArray: (name) => ['url', 'sitemap', 'image:image'].includes(name) });

interface UrlEntry {
  loc: string;
  lastmod: string;
  'image:image'?: Array<{ 'image:loc': string }>;
}

describe('the sitemap', () => {
  it('is an index of files once the articles outnumber one file, each file a valid urlset', async () => {
    const root = await app
      .api()
      .get('/api/artikel/sitemap.xml')
      .expect(200)
      .expect('Content-Type', /application\/xml/);
    const index = xml.parse(root.text) as { sitemapindex: { '@_xmlns': string; sitemap: Array<{ loc: string }> } };
    expect(index.sitemapindex['@_xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    expect(index.sitemapindex.sitemap.map((file) => file.loc)).toEqual(
      [1, 2, 3].map((page) => `https://api.studio.example/api/artikel/sitemap/${page}`),
    );

    const entries: UrlEntry[] = [];
    for (const page of [1, 2, 3]) {
      const file = xml.parse((await app.api().get(`/api/artikel/sitemap/${page}`).expect(200)).text) as {
        urlset: { '@_xmlns:image': string; url: UrlEntry[] };
      };
      expect(file.urlset['@_xmlns:image']).toBe('http://www.google.com/schemas/sitemap-image/1.1');
      expect(file.urlset.url.length).toBeLessThanOrEqual(3);
      entries.push(...file.urlset.url);
    }
    const slugs = ['dunes', 'linked-cover', ...[0, 1, 2, 3, 4].map((index) => `plain-${index}`)];
    expect(entries.map((entry) => entry.loc).sort()).toEqual(slugs.map((slug) => `https://studio.example/artikel/${slug}`).sort());
    for (const entry of entries) expect(new Date(entry.lastmod).toISOString()).toBe(entry.lastmod);

    const dunes = entries.find((entry) => entry.loc.endsWith('/dunes'));
    expect(dunes?.['image:image']?.map((image) => image['image:loc'])).toEqual([
      'https://api.studio.example/uploads/dunes-cover.jpg',
      'https://api.studio.example/uploads/dunes-1.jpg',
      'https://api.studio.example/uploads/dunes-2.jpg',
    ]);
    expect(entries.find((entry) => entry.loc.endsWith('/linked-cover'))?.['image:image']?.map((image) => image['image:loc'])).toEqual([
      'https://cdn.studio.example/linked.jpg',
    ]);
    expect(entries.find((entry) => entry.loc.endsWith('/plain-0'))?.['image:image']).toBeUndefined();
    expect(root.text + entries.map((entry) => entry.loc).join()).not.toContain('unseen-draft');
  });

  it('answers a file past the end with 404, and a bad file number or parameter with 400', async () => {
    await app.api().get('/api/artikel/sitemap/4').expect(404);
    for (const path of ['/api/artikel/sitemap/0', '/api/artikel/sitemap/first', '/api/artikel/sitemap.xml?page=2']) {
      const refused = await app.api().get(path).expect(400);
      expect(refused.body.error.name).toBe('ValidationError');
    }
  });

  it('is cached with an ETag until the next write', async () => {
    const first = await app.api().get('/api/artikel/sitemap/3').expect(200);
    await app.api().get('/api/artikel/sitemap/3').set('If-None-Match', first.headers.etag).expect(304);
    const category = (await app.api().get('/api/artikel/categories').expect(200)).body.data[0].slug as string;
    expect(category).toBe('landscapes');
    const created = await app.strapi.documents('api::category.category').findFirst({ filters: { slug: 'landscapes' } });
    await createArticle(app.strapi, { title: 'Plain 5', slug: 'plain-5', category: created?.documentId });
    const after = await app.api().get('/api/artikel/sitemap/3').set('If-None-Match', first.headers.etag).expect(200);
    expect(after.text).toContain('https://studio.example/artikel/plain-5');
  });
});
