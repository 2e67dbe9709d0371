import Parser from 'rss-parser';
import { ARTICLE_UID, createArticle, createCategory } from '../helpers/fixtures';
import { isContractError } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

const SITE = 'https://studio.example/artikel/{slug}';
let app: TestApp;

// Created oldest first; the feeds list them newest first.
const ARTICLES = [
  {
    title: 'Autumn portraits',
    slug: 'autumn-portraits',
    tags: 'Portrait, Autumn',
    content: 'Leaves and **warm** light.',
    cover_image_url: 'https://cdn.studio.example/autumn.jpg',
    category: 'portraits',
  },
  { title: 'Wedding in the rain', slug: 'wedding-rain', tags: 'Wedding', content: 'Umbrellas, again.', category: 'weddings' },
  { title: 'Studio at night', slug: 'studio-night', tags: 'Studio', content: 'Neon & <em>shadows</em>.', category: 'portraits' },
];

beforeAll(async () => {
  app = await startStrapi({ env: { SITE_ARTICLE_URL: SITE }, token: 'full-access' });
  const categories: Record<string, string> = {
    portraits: await createCategory(app.strapi, 'Portraits', 'portraits'),
    weddings: await createCategory(app.strapi, 'Weddings', 'weddings'),
  };
  for (const { category, ...article } of ARTICLES) await createArticle(app.strapi, { ...article, category: categories[category] });
  await createArticle(app.strapi, { title: 'Secret draft', slug: 'secret-draft', category: categories.portraits, status: 'draft' });
});

afterAll(async () => {
  await app.stop();
});

const parser = new Parser({ customFields: { item: ['content:encoded'] } });
const pageOf = (slug: string) => `https://studio.example/artikel/${slug}`;
const newestFirst = ARTICLES.map((article) => article.slug).reverse();

describe('feeds of the newest articles', () => {
  it('serves RSS 2.0 that a feed reader parses: every published article, newest first, with link, summary, content and cover', async () => {
    const response = await app
      .api()
      .get('/api/artikel/feed/rss')
      .expect(200)
      .expect('Content-Type', /application\/rss\+xml/);
    const feed = await parser.parseString(response.text);
    expect(feed.title).toBe('Lichtbild Studio');
    expect(feed.items.map((item) => item.link)).toEqual(newestFirst.map(pageOf));
    const autumn = feed.items.find((item) => item.link === pageOf('autumn-portraits'));
    expect(autumn).toMatchObject({ title: 'Autumn portraits', guid: pageOf('autumn-portraits') });
    expect(autumn?.content).toContain('Leaves and warm light.');
    expect((autumn as unknown as Record<string, string>)['content:encoded']).toContain('<strong>warm</strong>');
    expect(autumn?.enclosure?.url).toBe('https://cdn.studio.example/autumn.jpg');
    expect(autumn?.categories).toEqual(expect.arrayContaining(['Portraits', 'Portrait', 'Autumn']));
    expect(new Date(autumn?.pubDate ?? '').getTime()).not.toBeNaN();
    expect(response.text).not.toContain('Secret draft');
  });

  it('serves Atom with the same entries, each with its page, summary and content', async () => {
    const response = await app
      .api()
      .get('/api/artikel/feed/atom')
      .expect(200)
      .expect('Content-Type', /application\/atom\+xml/);
    const feed = await parser.parseString(response.text);
    expect(feed.items.map((item) => item.link)).toEqual(newestFirst.map(pageOf));
    for (const item of feed.items) {
      expect((item as { id?: string }).id).toBe(item.link);
      expect(item.title).toBeTruthy();
      expect(item.summary).toBeTruthy();
      expect(item.content).toMatch(/<p>/);
    }
  });

  it('serves JSON Feed with the same items, rendered content and cover image', async () => {
    const response = await app
      .api()
      .get('/api/artikel/feed/json')
      .expect(200)
      .expect('Content-Type', /application\/feed\+json/);
    const feed = JSON.parse(response.text) as {
      version: string;
      title: string;
      home_page_url: string;
      items: Array<{
        id: string;
        url: string;
        title: string;
        summary: string;
        content_html: string;
        image?: string;
        date_published: string;
      }>;
    };
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
    expect(feed.home_page_url).toBe('https://studio.example/');
    expect(feed.items.map((item) => item.url)).toEqual(newestFirst.map(pageOf));
    const night = feed.items.find((item) => item.url === pageOf('studio-night'));
    expect(night).toMatchObject({ id: pageOf('studio-night'), title: 'Studio at night', summary: 'Neon & shadows.' });
    expect(night?.content_html).toContain('<em>shadows</em>');
    expect(feed.items.find((item) => item.url === pageOf('autumn-portraits'))?.image).toBe('https://cdn.studio.example/autumn.jpg');
  });

  it('narrows a feed to one category by its slug; an unknown one is a 404, a bad format or parameter a 400', async () => {
    const weddings = await parser.parseString((await app.api().get('/api/artikel/feed/rss?kategori=weddings').expect(200)).text);
    expect(weddings.title).toBe('Lichtbild Studio: Weddings');
    expect(weddings.items.map((item) => item.link)).toEqual([pageOf('wedding-rain')]);
    const unknown = await app.api().get('/api/artikel/feed/rss?kategori=birds').expect(404);
    expect(isContractError(unknown)).toBe(true);
    const badFormat = await app.api().get('/api/artikel/feed/xml').expect(400);
    expect(badFormat.body.error.details.errors[0].path).toEqual(['format']);
    const extra = await app.api().get('/api/artikel/feed/atom?limit=5').expect(400);
    expect(extra.body.error.details.errors[0].path).toEqual(['limit']);
  });

  it('is cached with an ETag until the next write, which changes it', async () => {
    const first = await app.api().get('/api/artikel/feed/atom').expect(200);
    expect(first.headers['cache-control']).toMatch(/^public, max-age=/);
    await app.api().get('/api/artikel/feed/atom').set('If-None-Match', first.headers.etag).expect(304);
    await app
      .api()
      .post('/api/artikel')
      .set(app.auth())
      .send({ title: 'Fresh from the darkroom', category: 'Portraits', content: 'Silver gelatin.' })
      .expect(201);
    const after = await app.api().get('/api/artikel/feed/atom').set('If-None-Match', first.headers.etag).expect(200);
    expect((await parser.parseString(after.text)).items[0].link).toBe(pageOf('fresh-from-the-darkroom'));
    const documentId = (await app.api().get('/api/artikel/fresh-from-the-darkroom').expect(200)).body.data.id;
    await app.strapi.documents(ARTICLE_UID).delete({ documentId });
  });

  it('keeps the feed paths free of articles: feed and sitemap are reserved slugs', async () => {
    for (const slug of ['feed', 'sitemap']) {
      const refused = await app
        .api()
        .post('/api/artikel')
        .set(app.auth())
        .send({ title: 'Clash', category: 'Portraits', content: 'x', slug })
        .expect(400);
      expect(refused.body.error.details.errors[0].path).toEqual(['slug']);
    }
  });
});
