import { CATEGORY_UID, createArticle } from '../helpers/fixtures';
import { startStrapi, type TestApp } from '../helpers/strapi';

let app: TestApp;

const post = (body: object) => app.api().post('/api/artikel').set(app.auth()).send(body);

const goldenHourBody = {
  title: 'Ten Minutes of Golden Hour',
  category: 'Weddings',
  content: '## Why it matters\n\nThe best **portraits** happen before sunset. Plan a quiet slot! Then walk outside.',
};
const customSlugBody = { title: 'Explicit', category: 'Weddings', content: 'x', slug: '  My Custom Slug!! ' };

// The articles later tests need, each posted by its own test or, when that test has not run, by the
// helpers below (each test can run alone: npx jest <file> -t '<name>').
let goldenHourSlug: string | undefined;
let customSlug: string | undefined;

/** The slug of the article posted with every default. */
async function goldenHourArticleSlug(): Promise<string> {
  if (goldenHourSlug === undefined) goldenHourSlug = (await post(goldenHourBody).expect(201)).body.data.slug as string;
  return goldenHourSlug;
}

/** The slug of the article posted with an explicit slug. */
async function customSlugArticleSlug(): Promise<string> {
  if (customSlug === undefined) customSlug = (await post(customSlugBody).expect(201)).body.data.slug as string;
  return customSlug;
}

async function countRows(table: string): Promise<number> {
  const row = (await app.strapi.db.connection(table).count({ total: '*' }).first()) as { total: number | string };
  return Number(row.total);
}

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: { name: 'Portrait Sessions', slug: 'portrait-sessions' } });
});

afterAll(async () => {
  await app.stop();
});

describe('POST /api/artikel defaults', () => {
  it('answers 201 with a Location header and the full article with every default applied', async () => {
    const response = await post(goldenHourBody).expect(201);
    goldenHourSlug = response.body.data.slug;
    expect(response.headers.location).toBe('/api/artikel/ten-minutes-of-golden-hour');
    const article = response.body.data;
    expect(article).toMatchObject({
      title: 'Ten Minutes of Golden Hour',
      slug: 'ten-minutes-of-golden-hour',
      summary: 'Why it matters. The best portraits happen before sunset. Plan a quiet slot! Then walk outside.',
      author: 'Lichtbild Studio',
      status: 'published',
      meta_title: 'Ten Minutes of Golden Hour',
      meta_keywords: null,
      category: { name: 'Weddings', slug: 'weddings' },
      tags: [],
      views: 0,
      related: [],
      gallery: [],
    });
    expect(article.meta_description).toBe(article.summary);
    expect(article.content_html).toContain('<h2>Why it matters</h2>');
    expect(new Date(article.published_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('stores the defaults, so an editor sees them in the admin', async () => {
    expect(await goldenHourArticleSlug()).toBe('ten-minutes-of-golden-hour');
    const stored = await app.strapi
      .documents('api::article.article')
      .findFirst({ filters: { slug: 'ten-minutes-of-golden-hour' }, status: 'draft' });
    expect(stored).toMatchObject({
      author: 'Lichtbild Studio',
      meta_title: 'Ten Minutes of Golden Hour',
      summary: expect.stringContaining('The best portraits'),
    });
  });

  it('keeps every value the client gives', async () => {
    const response = await post({
      title: 'Given values',
      category: 'Weddings',
      content: 'Body text.',
      summary: 'My own summary.',
      author: 'Anna',
      meta_title: 'SEO title',
      meta_description: 'SEO description',
      meta_keywords: 'wedding photographer',
      cover_image_url: 'https://cdn.example.com/a.jpg',
    }).expect(201);
    expect(response.body.data).toMatchObject({
      summary: 'My own summary.',
      author: 'Anna',
      meta_title: 'SEO title',
      meta_description: 'SEO description',
      meta_keywords: 'wedding photographer',
      cover_image_url: 'https://cdn.example.com/a.jpg',
    });
  });

  it('summarizes HTML content as plain text of about 200 characters cut at a sentence', async () => {
    const sentence = '<p>This sentence about light and shadow is here to be long enough.</p>';
    const response = await post({ title: 'Long HTML', category: 'Weddings', content: sentence.repeat(8) }).expect(201);
    const { summary } = response.body.data;
    expect(summary).not.toMatch(/<|>/);
    expect(summary.length).toBeLessThanOrEqual(200);
    expect(summary.length).toBeGreaterThan(120);
    expect(summary.endsWith('enough.')).toBe(true);
  });

  it('parses tags: split on commas, trimmed, empties and case-insensitive duplicates dropped', async () => {
    const response = await post({
      title: 'Tagged',
      category: 'Weddings',
      content: 'x',
      tags: ' Wedding ,, outdoor,WEDDING , Golden Hour ,',
    }).expect(201);
    expect(response.body.data.tags).toEqual(['Wedding', 'outdoor', 'Golden Hour']);
    const byTag = await app.api().get('/api/artikel?tag=golden%20hour').expect(200);
    expect(byTag.body.data.map((article: { slug: string }) => article.slug)).toEqual(['tagged']);
  });
});

describe('POST /api/artikel slugs', () => {
  it('normalizes an explicit slug the way generated slugs are', async () => {
    const response = await post(customSlugBody).expect(201);
    customSlug = response.body.data.slug;
    expect(response.body.data.slug).toBe('my-custom-slug');
    expect(response.headers.location).toBe('/api/artikel/my-custom-slug');
  });

  it('answers an explicit slug that another article has with a 409 and stores nothing', async () => {
    expect(await customSlugArticleSlug()).toBe('my-custom-slug');
    const before = await countRows('articles');
    const response = await post({ title: 'Other', category: 'Weddings', content: 'x', slug: 'my-custom-slug' }).expect(409);
    expect(response.body).toMatchObject({ data: null, error: { status: 409, name: 'ConflictError' } });
    expect(response.body.error.details.errors[0].path).toEqual(['slug']);
    expect(await countRows('articles')).toBe(before);
  });

  it('answers an explicit slug that a draft has with a 409', async () => {
    await createArticle(app.strapi, { title: 'A draft', slug: 'draft-owned-slug', status: 'draft' });
    await post({ title: 'Other', category: 'Weddings', content: 'x', slug: 'draft-owned-slug' }).expect(409);
  });

  it('numbers a generated slug that is taken: -2, -3', async () => {
    const first = await post({ title: 'Same Title', category: 'Weddings', content: 'x' }).expect(201);
    const second = await post({ title: 'Same title', category: 'Weddings', content: 'x' }).expect(201);
    const third = await post({ title: 'same TITLE', category: 'Weddings', content: 'x', status: 'draft' }).expect(201);
    expect([first.body.data.slug, second.body.data.slug, third.body.data.slug]).toEqual(['same-title', 'same-title-2', 'same-title-3']);
  });

  it('numbers a slug only after its own title, not after titles that merely begin like it', async () => {
    await post({ title: 'Foggy', category: 'Weddings', content: 'x' }).expect(201);
    await post({ title: 'Fog lights', category: 'Weddings', content: 'x' }).expect(201);
    await post({ title: 'Fog 7', category: 'Weddings', content: 'x' }).expect(201);
    const first = await post({ title: 'Fog', category: 'Weddings', content: 'x' }).expect(201);
    const second = await post({ title: 'fog', category: 'Weddings', content: 'x' }).expect(201);
    const third = await post({ title: 'FOG', category: 'Weddings', content: 'x' }).expect(201);
    expect([first.body.data.slug, second.body.data.slug, third.body.data.slug]).toEqual(['fog', 'fog-2', 'fog-3']);
    // "Fog 7" holds fog-7.
    await post({ title: 'Fog', category: 'Weddings', content: 'x', slug: 'fog-7' }).expect(409);
  });

  it('never uses a fixed route word as a slug', async () => {
    const latest = await post({ title: 'Latest', category: 'Weddings', content: 'x' }).expect(201);
    expect(latest.body.data.slug).toBe('latest-2');
    const response = await post({ title: 'Explicit route word', category: 'Weddings', content: 'x', slug: 'Categories' }).expect(400);
    expect(response.body.error.details.errors[0].path).toEqual(['slug']);
    await app.api().get('/api/artikel/latest').expect(200);
    await app.api().get('/api/artikel/latest-2').expect(200);
  });

  it('gives a title with nothing sluggable a slug that works', async () => {
    const response = await post({ title: '📷🌅', category: 'Weddings', content: 'Emoji only.' }).expect(201);
    const { slug } = response.body.data;
    expect(slug).toMatch(/^[a-z0-9-]+$/);
    const read = await app.api().get(`/api/artikel/${slug}`).expect(200);
    expect(read.body.data.title).toBe('📷🌅');
  });

  it('refuses an explicit slug with nothing sluggable in it', async () => {
    const response = await post({ title: 'x', category: 'Weddings', content: 'x', slug: '🌅' }).expect(400);
    expect(response.body.error.details.errors[0].path).toEqual(['slug']);
  });

  it('gives 20 concurrent posts of one title 20 distinct slugs, with no 5xx', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => post({ title: 'Breaking news', category: 'News desk', content: 'Same title.' })),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(201));
    const slugs = responses.map((response) => response.body.data.slug as string);
    expect(new Set(slugs).size).toBe(20);
    expect(slugs).toContain('breaking-news');
    const listed = await app.api().get('/api/artikel?q=breaking&limit=50').expect(200);
    expect(listed.body.meta.pagination.total).toBe(20);
  });
});

describe('POST /api/artikel categories', () => {
  it('matches an existing category by name or slug in any case', async () => {
    const before = await countRows('categories');
    for (const category of ['portrait sessions', 'PORTRAIT-SESSIONS', 'Portrait Sessions']) {
      const response = await post({ title: `In ${category}`, category, content: 'x' }).expect(201);
      expect(response.body.data.category).toEqual({ name: 'Portrait Sessions', slug: 'portrait-sessions' });
    }
    expect(await countRows('categories')).toBe(before);
  });

  it('creates a category that does not exist yet', async () => {
    const response = await post({ title: 'Night sky', category: 'Astrophotography', content: 'x' }).expect(201);
    expect(response.body.data.category).toEqual({ name: 'Astrophotography', slug: 'astrophotography' });
    const categories = await app.api().get('/api/artikel/categories').expect(200);
    expect(categories.body.data).toContainEqual({ name: 'Astrophotography', slug: 'astrophotography', article_count: 1 });
  });

  it('creates one category when 20 concurrent posts name the same new one', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) => post({ title: `Concurrent ${index}`, category: 'Underwater Worlds', content: 'x' })),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(201));
    const matches = await app.strapi.documents(CATEGORY_UID).findMany({ filters: { slug: 'underwater-worlds' } });
    expect(matches).toHaveLength(1);
    const categories = await app.api().get('/api/artikel/categories').expect(200);
    expect(categories.body.data).toContainEqual({ name: 'Underwater Worlds', slug: 'underwater-worlds', article_count: 20 });
  });
});

describe('POST /api/artikel publication state', () => {
  it('puts a published article in every public read at once', async () => {
    await post({ title: 'Fresh and live', category: 'Fresh Category', content: 'Brand new.', tags: 'fresh' }).expect(201);
    expect((await app.api().get('/api/artikel/fresh-and-live').expect(200)).body.data.status).toBe('published');
    expect((await app.api().get('/api/artikel/latest').expect(200)).body.data[0].slug).toBe('fresh-and-live');
    expect((await app.api().get('/api/artikel?tag=fresh').expect(200)).body.data.map((a: { slug: string }) => a.slug)).toEqual([
      'fresh-and-live',
    ]);
    expect((await app.api().get('/api/artikel?q=brand').expect(200)).body.data.map((a: { slug: string }) => a.slug)).toEqual([
      'fresh-and-live',
    ]);
    const categories = (await app.api().get('/api/artikel/categories').expect(200)).body.data;
    expect(categories).toContainEqual({ name: 'Fresh Category', slug: 'fresh-category', article_count: 1 });
  });

  it('keeps a draft out of every public read', async () => {
    const response = await post({
      title: 'Quiet draft',
      category: 'Draft Only Category',
      content: 'Hidden words.',
      tags: 'hiddentag',
      status: 'draft',
    }).expect(201);
    expect(response.body.data).toMatchObject({ status: 'draft', published_at: null, slug: 'quiet-draft' });
    await app.api().get('/api/artikel/quiet-draft').expect(404);
    expect((await app.api().get('/api/artikel?q=hidden').expect(200)).body.data).toEqual([]);
    expect((await app.api().get('/api/artikel?tag=hiddentag').expect(200)).body.data).toEqual([]);
    expect(JSON.stringify((await app.api().get('/api/artikel/latest').expect(200)).body)).not.toContain('quiet-draft');
    const categories = (await app.api().get('/api/artikel/categories').expect(200)).body.data;
    expect(categories).toContainEqual({ name: 'Draft Only Category', slug: 'draft-only-category', article_count: 0 });
  });
});
