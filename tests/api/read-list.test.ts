import { ARTICLE_UID, createArticle, createCategory } from '../helpers/fixtures';
import { startStrapi, type TestApp } from '../helpers/strapi';

let app: TestApp;
let weddings: string;
let portraits: string;

beforeAll(async () => {
  app = await startStrapi();
  weddings = await createCategory(app.strapi, 'Weddings', 'weddings');
  portraits = await createCategory(app.strapi, 'Portrait Sessions', 'portrait-sessions');
  // Created oldest first, so the newest-first order is the reverse of this list.
  await createArticle(app.strapi, {
    title: 'Golden hour at the lake',
    slug: 'golden-hour',
    category: weddings,
    tags: 'Wedding, Outdoor',
    content: 'Warm light over the water and a 50% discount.',
  });
  await createArticle(app.strapi, {
    title: 'Studio portraits with one light',
    slug: 'one-light',
    category: portraits,
    tags: 'Portrait, Studio',
    content: 'A single softbox_key light is enough.',
  });
  await createArticle(app.strapi, {
    title: 'Rainy wedding day',
    slug: 'rainy-wedding',
    category: weddings,
    tags: 'Wedding, Rain, wedding',
    content: 'Umbrellas make great props for a wedding.',
  });
  await createArticle(app.strapi, {
    title: 'Draft about weddings',
    slug: 'draft-weddings',
    category: weddings,
    tags: 'Wedding',
    status: 'draft',
  });
  await createArticle(app.strapi, {
    title: 'Wedge lenses explained',
    slug: 'wedge-lenses',
    category: portraits,
    tags: 'wed',
    content: 'Tilt and shift.',
  });
});

afterAll(async () => {
  await app.stop();
});

const slugsOf = (body: { data: Array<{ slug: string }> }) => body.data.map((article) => article.slug);

describe('GET /api/artikel', () => {
  it('lists published articles newest first with pagination meta', async () => {
    const response = await app.api().get('/api/artikel').expect(200);
    expect(slugsOf(response.body)).toEqual(['wedge-lenses', 'rainy-wedding', 'one-light', 'golden-hour']);
    expect(response.body.meta).toEqual({ pagination: { page: 1, limit: 10, total: 4, total_exact: true, page_count: 1 } });
  });

  it('shapes every item as an article summary of the contract', async () => {
    const response = await app.api().get('/api/artikel').expect(200);
    const rainy = response.body.data.find((article: { slug: string }) => article.slug === 'rainy-wedding');
    expect(Object.keys(rainy).sort()).toEqual(
      [
        'author',
        'category',
        'cover',
        'cover_image_url',
        'id',
        'published_at',
        'reading_time',
        'slug',
        'summary',
        'tags',
        'title',
        'updated_at',
        'views',
      ].sort(),
    );
    expect(rainy).toMatchObject({
      title: 'Rainy wedding day',
      category: { name: 'Weddings', slug: 'weddings' },
      tags: ['Wedding', 'Rain'],
      cover_image_url: null,
      author: 'Lichtbild Studio',
      views: 0,
      reading_time: 1,
      summary: 'Umbrellas make great props for a wedding.',
    });
    expect(typeof rainy.id).toBe('string');
    expect(new Date(rainy.published_at).toISOString()).toBe(rainy.published_at);
  });

  it('pages through the list and reports the total', async () => {
    const first = await app.api().get('/api/artikel?limit=3&page=1').expect(200);
    const second = await app.api().get('/api/artikel?limit=3&page=2').expect(200);
    expect(slugsOf(first.body)).toEqual(['wedge-lenses', 'rainy-wedding', 'one-light']);
    expect(slugsOf(second.body)).toEqual(['golden-hour']);
    expect(second.body.meta.pagination).toEqual({ page: 2, limit: 3, total: 4, total_exact: true, page_count: 2 });
  });

  it('links the next and previous pages in a Link header and in the body, keeping the query', async () => {
    const first = await app.api().get('/api/artikel?q=e&limit=2').expect(200);
    const page = (number: number) => expect.stringMatching(new RegExp(`^https?://[^/]+/api/artikel\\?q=e&limit=2&page=${number}$`));
    // The next page by a cursor (base64url text with one dot) in place of a page number; back to page 1 by the plain URL.
    const byCursor = expect.stringMatching(/^https?:\/\/[^/]+\/api\/artikel\?q=e&limit=2&cursor=[A-Za-z0-9_.-]+$/);
    const plain = expect.stringMatching(/^https?:\/\/[^/]+\/api\/artikel\?q=e&limit=2$/);
    expect(first.body.links).toEqual({ next: byCursor, prev: null });
    expect(first.headers.link).toBe(`<${first.body.links.next}>; rel="next"`);

    const second = await app
      .api()
      .get(new URL(first.body.links.next).pathname + new URL(first.body.links.next).search)
      .expect(200);
    expect(second.body.meta.pagination).toEqual({ page: 2, limit: 2, total: 4, total_exact: true, page_count: 2 });
    expect(second.body.links).toEqual({ next: null, prev: plain });
    expect(second.headers.link).toBe(`<${second.body.links.prev}>; rel="prev"`);

    // By page number, the previous page is a page number as before.
    const numbered = await app.api().get('/api/artikel?q=e&limit=2&page=2').expect(200);
    expect(numbered.body.links).toEqual({ next: null, prev: page(1) });

    const past = await app.api().get('/api/artikel?q=e&limit=2&page=7').expect(200);
    expect(past.body.links).toEqual({ next: null, prev: page(2) });
    const only = await app.api().get('/api/artikel').expect(200);
    expect(only.body.links).toEqual({ next: null, prev: null });
    expect(only.headers.link).toBeUndefined();
  });

  it('answers a page past the end with an empty list and correct meta', async () => {
    const response = await app.api().get('/api/artikel?limit=3&page=9').expect(200);
    expect(response.body).toEqual({
      data: [],
      meta: { pagination: { page: 9, limit: 3, total: 4, total_exact: true, page_count: 2 } },
      links: { next: null, prev: expect.stringMatching(/\/api\/artikel\?limit=3&page=2$/) },
    });
  });

  it('answers a page of 10^9 quickly with an empty list', async () => {
    const response = await app.api().get('/api/artikel?page=1000000000').expect(200);
    expect(response.body.data).toEqual([]);
    expect(response.body.meta.pagination.page).toBe(1000000000);
  });

  it('serves a limit above 50 as 50', async () => {
    const response = await app.api().get('/api/artikel?limit=1000000000').expect(200);
    expect(response.body.meta.pagination.limit).toBe(50);
    expect(response.body.data).toHaveLength(4);
  });

  it.each(['0', '-1', '2.5', 'abc', '', '1e3', ' 3'])('rejects limit=%j with a 400 naming limit', async (limit) => {
    const response = await app.api().get('/api/artikel').query({ limit }).expect(400);
    expect(response.body.data).toBeNull();
    expect(response.body.error).toMatchObject({ status: 400, name: 'ValidationError' });
    expect(response.body.error.details.errors.map((error: { path: string[] }) => error.path)).toEqual([['limit']]);
  });

  it('rejects a bad page and a bad limit together, naming both', async () => {
    const response = await app.api().get('/api/artikel?page=0&limit=x').expect(400);
    const paths = response.body.error.details.errors.map((error: { path: string[] }) => error.path[0]).sort();
    expect(paths).toEqual(['limit', 'page']);
  });

  it('rejects query parameters it does not know, naming each', async () => {
    const response = await app.api().get('/api/artikel?status=draft&populate=*').expect(400);
    const paths = response.body.error.details.errors.map((error: { path: string[] }) => error.path[0]).sort();
    expect(paths).toEqual(['populate', 'status']);
  });

  it('requires every word of q, in any case, in title, content or tags', async () => {
    const found = (await app.api().get('/api/artikel?q=WEDDING').expect(200)).body;
    // "wedding" shares its English stem with the tag "wed" (contract, fourth round: a word or its stem).
    expect(slugsOf(found)).toEqual(['wedge-lenses', 'rainy-wedding', 'golden-hour']);
    // The draft about weddings is neither shown nor counted.
    expect(found.meta.pagination.total).toBe(3);
    expect(slugsOf((await app.api().get('/api/artikel?q=weddings&tag=wedding').expect(200)).body)).toEqual([
      'rainy-wedding',
      'golden-hour',
    ]);
    expect(slugsOf((await app.api().get('/api/artikel').query({ q: '  rainy   umbrellas ' }).expect(200)).body)).toEqual(['rainy-wedding']);
    expect(slugsOf((await app.api().get('/api/artikel').query({ q: 'rainy softbox' }).expect(200)).body)).toEqual([]);
    expect(slugsOf((await app.api().get('/api/artikel').query({ q: 'outdoor' }).expect(200)).body)).toEqual(['golden-hour']);
  });

  it('finds a word inside longer words and in non-ASCII text, in any case', async () => {
    const documentId = await createArticle(app.strapi, {
      title: 'Über den Wolken',
      slug: 'ueber-den-wolken',
      category: portraits,
      content: 'Hochzeitsfotografie im ÄUSSERSTEN Norden.',
    });
    try {
      for (const q of ['über', 'ÜBER', 'fotograf', 'äußersten'.replace('ß', 'ss'), 'Wolken hochzeit', 'im wolken']) {
        expect(slugsOf((await app.api().get('/api/artikel').query({ q }).expect(200)).body)).toEqual(['ueber-den-wolken']);
      }
      expect(slugsOf((await app.api().get('/api/artikel').query({ q: 'über softbox' }).expect(200)).body)).toEqual([]);
    } finally {
      await app.strapi.documents(ARTICLE_UID).delete({ documentId });
    }
  });

  it('finds parts of up to 100 characters of a very long word (a pasted URL or hash), in any case', async () => {
    const hash = `${'A1b2C3d4'.repeat(60)}Falcon${'e5F6'.repeat(30)}`;
    const documentId = await createArticle(app.strapi, {
      title: 'Checksums',
      slug: 'checksums',
      category: portraits,
      content: `Download https://example.com/raw/${hash}.zip today.`,
    });
    try {
      for (const q of [
        `raw/${'a1b2c3d4'.repeat(12)}`,
        `${'A1b2C3d4'.repeat(2)}Falcon${'e5F6'.repeat(19)}`,
        'falcon',
        'falconE5f6',
        `${'c3d4a1b2'.repeat(12)}`,
      ]) {
        expect(slugsOf((await app.api().get('/api/artikel').query({ q }).expect(200)).body)).toEqual(['checksums']);
      }
      expect(
        slugsOf(
          (
            await app
              .api()
              .get('/api/artikel')
              .query({ q: `falcon${'e5F6'.repeat(20)}x` })
              .expect(200)
          ).body,
        ),
      ).toEqual([]);
      // The whole word is longer than a search word may be (100 characters): a 400 that says so.
      const refused = await app.api().get('/api/artikel').query({ q: hash }).expect(400);
      expect(refused.body.error.details.errors.map((error: { path: string[] }) => error.path)).toEqual([['q']]);
    } finally {
      await app.strapi.documents(ARTICLE_UID).delete({ documentId });
    }
  });

  it('keeps search results in step with edits, unpublishing, publishing and deletion', async () => {
    // The slugs found, checked against the total the page gives.
    const search = async (q: string) => {
      const { body } = await app.api().get('/api/artikel').query({ q }).expect(200);
      expect(body.meta.pagination.total).toBe(body.data.length);
      return slugsOf(body);
    };
    const documentId = await createArticle(app.strapi, {
      title: 'Snowy forest walk',
      slug: 'snowy-forest',
      category: portraits,
      content: 'Frost on pine needles.',
    });
    expect(await search('needles')).toEqual(['snowy-forest']);

    await app.strapi.documents(ARTICLE_UID).update({ documentId, data: { content: 'Hoarfrost on birch branches.' } });
    expect(await search('needles')).toEqual(['snowy-forest']);
    await app.strapi.documents(ARTICLE_UID).publish({ documentId });
    expect(await search('needles')).toEqual([]);
    expect(await search('birch')).toEqual(['snowy-forest']);

    await app.strapi.documents(ARTICLE_UID).unpublish({ documentId });
    expect(await search('birch')).toEqual([]);
    await app.strapi.documents(ARTICLE_UID).publish({ documentId });
    expect(await search('birch')).toEqual(['snowy-forest']);

    await app.strapi.documents(ARTICLE_UID).delete({ documentId });
    expect(await search('birch')).toEqual([]);
    const indexed = (await app.strapi.db.connection('artikel_search_docs').count({ count: '*' }).first()) as { count: number };
    expect(Number(indexed.count)).toBe(4);
  });

  it('treats an empty q as no filter', async () => {
    const response = await app.api().get('/api/artikel').query({ q: '   ' }).expect(200);
    expect(response.body.meta.pagination.total).toBe(4);
  });

  it('treats % and _ in q as ordinary characters', async () => {
    expect(slugsOf((await app.api().get('/api/artikel').query({ q: '50%' }).expect(200)).body)).toEqual(['golden-hour']);
    expect(slugsOf((await app.api().get('/api/artikel').query({ q: '%' }).expect(200)).body)).toEqual(['golden-hour']);
    expect(slugsOf((await app.api().get('/api/artikel').query({ q: 'softbox_key' }).expect(200)).body)).toEqual(['one-light']);
    expect(slugsOf((await app.api().get('/api/artikel').query({ q: '_' }).expect(200)).body)).toEqual(['one-light']);
    expect(slugsOf((await app.api().get('/api/artikel').query({ q: 'it\'s "quoted"' }).expect(200)).body)).toEqual([]);
  });

  it('filters by category name or slug in any case, and counts only its published articles', async () => {
    for (const kategori of ['Weddings', 'weddings', 'WEDDINGS']) {
      const response = await app.api().get('/api/artikel').query({ kategori }).expect(200);
      expect(slugsOf(response.body)).toEqual(['rainy-wedding', 'golden-hour']);
      // The draft about weddings is neither shown nor counted.
      expect(response.body.meta.pagination.total).toBe(2);
    }
    for (const kategori of ['Portrait Sessions', 'portrait-sessions', 'PORTRAIT-SESSIONS']) {
      const response = await app.api().get('/api/artikel').query({ kategori }).expect(200);
      expect(slugsOf(response.body)).toEqual(['wedge-lenses', 'one-light']);
      expect(response.body.meta.pagination.total).toBe(2);
    }
  });

  it('gives an empty page for an unknown category', async () => {
    const response = await app.api().get('/api/artikel').query({ kategori: 'Astronomy' }).expect(200);
    expect(response.body).toEqual({
      data: [],
      meta: { pagination: { page: 1, limit: 10, total: 0, total_exact: true, page_count: 0 } },
      links: { next: null, prev: null },
    });
  });

  it('matches a tag as a whole tag in any case', async () => {
    expect(slugsOf((await app.api().get('/api/artikel').query({ tag: 'wedding' }).expect(200)).body)).toEqual([
      'rainy-wedding',
      'golden-hour',
    ]);
    expect(slugsOf((await app.api().get('/api/artikel').query({ tag: 'WEDDING' }).expect(200)).body)).toEqual([
      'rainy-wedding',
      'golden-hour',
    ]);
    expect(slugsOf((await app.api().get('/api/artikel').query({ tag: 'wed' }).expect(200)).body)).toEqual(['wedge-lenses']);
    expect(slugsOf((await app.api().get('/api/artikel').query({ tag: 'wedd' }).expect(200)).body)).toEqual([]);
  });

  it('combines search, category and tag filters', async () => {
    const response = await app.api().get('/api/artikel').query({ q: 'light', kategori: 'weddings', tag: 'outdoor' }).expect(200);
    expect(slugsOf(response.body)).toEqual(['golden-hour']);
  });
});

describe('stock REST routes', () => {
  it('do not exist for articles or categories, so drafts cannot be fetched through them', async () => {
    await app.api().get('/api/articles?status=draft').expect(404);
    await app.api().get('/api/categories').expect(404);
  });
});
