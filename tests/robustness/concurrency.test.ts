import autocannon from 'autocannon';
import { createArticle, createCategory, storedViews } from '../helpers/fixtures';
import { reportFigure } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

let app: TestApp;

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access' });
});

afterAll(async () => {
  await app.stop();
});

describe('concurrent clients', () => {
  it('counts exactly 1,000 views for 1,000 reads of one slug over 50 connections, with no errors', async () => {
    const category = await createCategory(app.strapi, 'Popular', 'popular');
    const documentId = await createArticle(app.strapi, { title: 'A popular article', slug: 'popular', category, tags: 'Shared' });
    const result = await autocannon({ url: `${await app.baseUrl()}/api/artikel/popular`, connections: 50, amount: 1000 });

    expect(result['2xx']).toBe(1000);
    expect(result.non2xx + result.errors + result.timeouts).toBe(0);
    expect(await storedViews(app.strapi, documentId)).toBe(1000);
    const next = await app.api().get('/api/artikel/popular').expect(200);
    expect(next.body.data.views).toBe(1001);
    reportFigure(
      'concurrent reads',
      `${result['2xx']} × 200 over ${result.connections} connections, ${result.errors} errors; views rose by ${next.body.data.views - 1} (${Math.round(result.requests.average)} req/s)`,
    );
  });

  it('gives 50 concurrent posts of one title 50 distinct slugs', async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        app.api().post('/api/artikel').set(app.auth()).send({ title: 'Same title', category: 'Popular', content: 'Race.' }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(50);
    const slugs = new Set(responses.map((response) => response.body.data.slug as string));
    expect(slugs.size).toBe(50);
    const stored = (await app.strapi.db
      .connection('articles')
      .where({ title: 'Same title' })
      .whereNotNull('published_at')
      .countDistinct({ slugs: 'slug' })
      .first()) as { slugs: number };
    expect(Number(stored.slugs)).toBe(50);
    reportFigure('concurrent posts of one title', `50 × 201, ${slugs.size} distinct slugs`);
  });

  it('creates one category for 20 concurrent posts naming the same new category', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_unused, index) =>
        app
          .api()
          .post('/api/artikel')
          .set(app.auth())
          .send({ title: `New category ${index}`, category: index % 2 === 0 ? 'Night Sky' : 'night sky', content: 'Stars.' }),
      ),
    );
    expect(responses.every((response) => response.status === 201)).toBe(true);
    const categories = (await app.strapi.db
      .connection('categories')
      .whereRaw('LOWER(name) = ?', ['night sky'])
      .count({ total: '*' })
      .first()) as { total: number };
    expect(Number(categories.total)).toBe(1);
    const listed = await app.api().get('/api/artikel/categories').expect(200);
    expect(listed.body.data.find((category: { slug: string }) => category.slug === 'night-sky')).toMatchObject({ article_count: 20 });
    reportFigure('concurrent posts of one new category', `20 × 201, ${Number(categories.total)} category`);
  });
});
