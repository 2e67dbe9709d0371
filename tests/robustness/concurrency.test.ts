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

describe('a page read while an article on it is published again', () => {
  it('still lists that article: every page of the list and of its category is full and holds it', async () => {
    const category = await createCategory(app.strapi, 'Republished', 'republished');
    for (let index = 0; index < 11; index += 1)
      await createArticle(app.strapi, { title: `Steady article ${index}`, slug: `steady-${index}`, category });
    await createArticle(app.strapi, { title: 'Edited again and again', slug: 'edited-often', category });
    const republishes = 40;
    let writing = true;
    // Each edit publishes the article again: Strapi replaces its published row with a new one.
    const writer = (async () => {
      try {
        for (let edit = 0; edit < republishes; edit += 1) {
          await app
            .api()
            .patch('/api/artikel/edited-often')
            .set(app.auth())
            .send({ content: `Edit number ${edit}.` })
            .expect(200);
        }
      } finally {
        writing = false;
      }
    })();
    const short: string[] = [];
    let reads = 0;
    // A different limit each time, so that no read is answered from the cache of another.
    while (writing) {
      const limit = 12 + (reads % 30);
      const path = reads % 2 === 0 ? `/api/artikel?limit=${limit}` : `/api/artikel?kategori=republished&limit=${limit}`;
      const answer = await fetch(`${await app.baseUrl()}${path}`);
      const body = (await answer.json()) as { data?: Array<{ slug: string }>; meta?: { pagination: { total: number } } };
      const slugs = (body.data ?? []).map((article) => article.slug);
      // The twelve are the newest articles: whatever else the app holds, each page has all of them.
      const full = slugs.length === Math.min(limit, body.meta?.pagination.total ?? -1);
      if (answer.status !== 200 || !slugs.includes('edited-often') || !full)
        short.push(`${path}: ${answer.status}, ${slugs.length} articles`);
      reads += 1;
    }
    await writer;
    reportFigure('pages read during republishing', `${reads} pages read during ${republishes} republishes, ${short.length} short`);
    // Reads and edits take turns on the event loop: at least one read between two edits, on average.
    expect(reads).toBeGreaterThanOrEqual(republishes / 2);
    expect(short).toEqual([]);
  }, 180_000);
});
