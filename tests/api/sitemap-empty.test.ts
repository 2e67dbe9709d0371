import { XMLParser } from 'fast-xml-parser';
import { createArticle, createCategory } from '../helpers/fixtures';
import { startStrapi, type TestApp } from '../helpers/strapi';

// A new site: nothing published yet, only a draft.
let app: TestApp;

beforeAll(async () => {
  app = await startStrapi();
  const category = await createCategory(app.strapi, 'Landscapes', 'landscapes');
  await createArticle(app.strapi, { title: 'Unseen draft', slug: 'unseen-draft', category, status: 'draft' });
});

afterAll(async () => {
  await app.stop();
});

describe('the sitemap of a site with nothing published', () => {
  it.each(['/api/artikel/sitemap.xml', '/api/artikel/sitemap/1'])('%s is a valid empty urlset, not an error', async (path) => {
    const response = await app.api().get(path).expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/xml/);
    const document = new XMLParser({ ignoreAttributes: false }).parse(response.text as string) as {
      urlset?: { '@_xmlns': string; url?: unknown };
    };
    expect(document.urlset?.['@_xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    expect(document.urlset?.url).toBeUndefined();
  });

  it('lists the first article once it is published', async () => {
    const category = await createCategory(app.strapi, 'Portraits', 'portraits');
    await createArticle(app.strapi, { title: 'First light', slug: 'first-light', category });
    const response = await app.api().get('/api/artikel/sitemap.xml').expect(200);
    expect(response.text).toContain('first-light');
    expect(response.text).not.toContain('unseen-draft');
  });
});
