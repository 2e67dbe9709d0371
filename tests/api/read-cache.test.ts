import type { Knex } from 'knex';
import { ARTICLE_UID, CATEGORY_UID, createArticle, createCategory } from '../helpers/fixtures';
import { reportFigure } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

interface CacheUsage {
  entries: number;
  bytes: number;
  maxBytes: number;
}

const usageOf = (app: TestApp): CacheUsage => (app.strapi.plugin('artikel').service('read-cache') as { usage: () => CacheUsage }).usage();

/** Renames a published article behind the service's back (plain SQL: no Document Service, no lifecycle hook). */
async function renameInTable(app: TestApp, slug: string, title: string): Promise<void> {
  const knex = app.strapi.db.connection as Knex;
  const changed = await knex('articles').where({ slug }).whereNotNull('published_at').update({ title });
  expect(changed).toBe(1);
}

// 300 words every article holds, so each search for one of them is a full page of summaries.
const SHARED_WORDS = Array.from({ length: 300 }, (_, i) => `kelvin${String(i).padStart(3, '0')}`);
const LONG_ARTICLES = 40;

describe('a read cache of 1 MiB', () => {
  let app: TestApp;

  beforeAll(async () => {
    // The read cache is sized by ARTIKEL_READ_CACHE_MB, read when the app starts.
    app = await startStrapi({ env: { ARTIKEL_READ_CACHE_MB: '1' }, token: 'full-access', category: { name: 'Studio', slug: 'studio' } });
    const filler = `${SHARED_WORDS.join(' ')}\n\n${'A long paragraph about light and lenses. '.repeat(800)}`;
    for (let i = 1; i <= LONG_ARTICLES; i += 1) {
      await createArticle(app.strapi, {
        title: `Long read ${i}`,
        slug: `long-read-${i}`,
        category: app.categoryId,
        tags: 'Light',
        content: `Part ${i}.\n\n${filler}`,
      });
    }
  });

  afterAll(async () => {
    await app.stop();
  });

  it('holds no more than its budget while 40 long articles and 300 distinct searches flood it, and every answer stays right', async () => {
    for (let i = 1; i <= LONG_ARTICLES; i += 1) {
      const article = (await app.api().get(`/api/artikel/long-read-${i}`).expect(200)).body.data;
      expect(article.title).toBe(`Long read ${i}`);
      expect(article.content.length).toBeGreaterThan(30_000);
    }
    const afterPages = usageOf(app);
    for (const word of SHARED_WORDS) {
      const page = (await app.api().get(`/api/artikel?q=${word}&limit=50`).expect(200)).body;
      expect(page.meta.pagination.total).toBe(LONG_ARTICLES);
      expect(page.data).toHaveLength(LONG_ARTICLES);
    }
    const afterSearches = usageOf(app);
    reportFigure('[cache] 1 MiB budget after 40 long article pages', `${afterPages.entries} entries, ${afterPages.bytes} bytes`);
    reportFigure(
      '[cache] 1 MiB budget after 300 searches of 40 summaries',
      `${afterSearches.entries} entries, ${afterSearches.bytes} bytes`,
    );

    for (const usage of [afterPages, afterSearches]) {
      expect(usage.maxBytes).toBe(1024 * 1024);
      expect(usage.bytes).toBeLessThanOrEqual(usage.maxBytes);
      expect(usage.entries).toBeGreaterThan(0);
    }
    // Far more was read than fits, so entries went out.
    expect(afterPages.entries).toBeLessThan(LONG_ARTICLES);
    expect(afterSearches.entries).toBeLessThan(SHARED_WORDS.length);

    // What went out is computed again, right; what stayed is still right.
    expect((await app.api().get('/api/artikel/long-read-1').expect(200)).body.data.title).toBe('Long read 1');
    expect((await app.api().get(`/api/artikel/long-read-${LONG_ARTICLES}`).expect(200)).body.data.title).toBe(`Long read ${LONG_ARTICLES}`);
    expect((await app.api().get(`/api/artikel?q=${SHARED_WORDS[0]}&limit=50`).expect(200)).body.data).toHaveLength(LONG_ARTICLES);
  });

  it('keeps other articles remembered when one article is published, and shows the new one in their related articles', async () => {
    await createArticle(app.strapi, { title: 'Kept page', slug: 'kept-page', tags: 'Fern', content: 'A short page.' });
    const first = (await app.api().get('/api/artikel/kept-page').expect(200)).body.data;
    expect(first.related.map((article: { slug: string }) => article.slug)).not.toContain('fern-at-noon');

    await app
      .api()
      .post('/api/artikel')
      .set(app.auth())
      .send({ title: 'Fern at noon', content: 'Fronds.', category: 'Studio', tags: 'Fern' })
      .expect(201);
    // A table change no write announced: only a page that was not computed again still shows the old title.
    await renameInTable(app, 'kept-page', 'Renamed in the table');

    const again = (await app.api().get('/api/artikel/kept-page').expect(200)).body.data;
    expect(again.title).toBe('Kept page');
    expect(again.related[0].slug).toBe('fern-at-noon');

    // Its own write drops it.
    const documentId = (await app.strapi.documents(ARTICLE_UID).findFirst({ filters: { slug: 'kept-page' } }))!.documentId;
    await app.strapi.documents(ARTICLE_UID).update({ documentId, data: { title: 'Kept page, edited' } });
    await app.strapi.documents(ARTICLE_UID).publish({ documentId });
    expect((await app.api().get('/api/artikel/kept-page').expect(200)).body.data.title).toBe('Kept page, edited');
  });

  it("keeps an article's page and the lists remembered while a draft of it is saved, and shows the edit once it is published", async () => {
    const documentId = await createArticle(app.strapi, { title: 'Thyme in pots', slug: 'thyme-in-pots', tags: 'Thyme' });
    const titlesOfTag = async () =>
      (await app.api().get('/api/artikel?tag=Thyme').expect(200)).body.data.map((article: { title: string }) => article.title);
    expect((await app.api().get('/api/artikel/thyme-in-pots').expect(200)).body.data.title).toBe('Thyme in pots');
    expect(await titlesOfTag()).toEqual(['Thyme in pots']);
    await renameInTable(app, 'thyme-in-pots', 'Renamed in the table');

    // A draft's save leaves the published version as it was: nothing public is computed again.
    await app.strapi.documents(ARTICLE_UID).update({ documentId, data: { title: 'Thyme in clay pots' } });
    expect((await app.api().get('/api/artikel/thyme-in-pots').expect(200)).body.data.title).toBe('Thyme in pots');
    expect(await titlesOfTag()).toEqual(['Thyme in pots']);

    await app.strapi.documents(ARTICLE_UID).publish({ documentId });
    expect((await app.api().get('/api/artikel/thyme-in-pots').expect(200)).body.data.title).toBe('Thyme in clay pots');
    expect(await titlesOfTag()).toEqual(['Thyme in clay pots']);
  });
});

describe('related articles after a write', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startStrapi({ env: { ARTIKEL_READ_CACHE_MB: '64' }, token: 'full-access' });
    const moss = await createCategory(app.strapi, 'Moss', 'moss');
    await createCategory(app.strapi, 'Harbour', 'harbour');
    // Five sharing a tag: each one's four related articles come from the tag alone.
    for (let i = 1; i <= 5; i += 1)
      await createArticle(app.strapi, { title: `Moss ${i}`, slug: `moss-${i}`, category: moss, tags: 'Green' });
    // None sharing its tag: its related articles are its category's newest.
    await createArticle(app.strapi, { title: 'Lone moss', slug: 'lone-moss', category: moss, tags: 'Solo' });
  });

  afterAll(async () => {
    await app.stop();
  });

  const relatedOf = async (slug: string) =>
    (await app.api().get(`/api/artikel/${slug}`).expect(200)).body.data.related as Array<{ slug: string; title: string }>;
  const post = (body: Record<string, string>) => app.api().post('/api/artikel').set(app.auth()).send(body).expect(201);

  it('stay remembered when an article sharing none of their tags, or one ranking below all four, is published, and are chosen again when one ranks among them', async () => {
    const moss = (await app.strapi.documents(CATEGORY_UID).findFirst({ filters: { slug: 'moss' } }))!.documentId;
    for (let i = 1; i <= 5; i += 1)
      await createArticle(app.strapi, { title: `Lichen ${i}`, slug: `lichen-${i}`, category: moss, tags: 'Lichen' });
    expect((await relatedOf('lichen-1')).map((article) => article.slug)).toEqual(['lichen-5', 'lichen-4', 'lichen-3', 'lichen-2']);
    await renameInTable(app, 'lichen-5', 'Renamed unannounced');

    await post({ title: 'Boats at dusk', content: 'Masts.', category: 'Harbour', tags: 'Boats' });
    // Not chosen again: the unannounced title is not seen.
    expect((await relatedOf('lichen-1'))[0].title).toBe('Lichen 5');

    // Shares the tag, but the four chosen share it too and are of lichen-1's category: it cannot rank among them.
    await post({ title: 'Lichen on the pier', content: 'Salt.', category: 'Harbour', tags: 'Lichen' });
    expect((await relatedOf('lichen-1'))[0].title).toBe('Lichen 5');

    // Shares the tag and the category, and is newest: it ranks first, and the list is chosen again from the table.
    const { body } = await post({ title: 'Lichen in rain', content: 'Drops.', category: 'Moss', tags: 'Lichen' });
    const again = await relatedOf('lichen-1');
    expect(again.map((article) => article.slug)).toEqual([body.data.slug, 'lichen-5', 'lichen-4', 'lichen-3']);
    expect(again[1].title).toBe('Renamed unannounced');
  });

  it('are chosen again when a new article pushes one of them out of the newest 50 of each tag they share', async () => {
    const harbour = (await app.strapi.documents(CATEGORY_UID).findFirst({ filters: { slug: 'harbour' } }))!.documentId;
    const moss = (await app.strapi.documents(CATEGORY_UID).findFirst({ filters: { slug: 'moss' } }))!.documentId;
    await createArticle(app.strapi, { title: 'Pine and cone', slug: 'pine-and-cone', category: harbour, tags: 'Pine, Cone' });
    for (let i = 1; i <= 4; i += 1)
      await createArticle(app.strapi, { title: `Pine and cone ${i}`, slug: `pine-and-cone-${i}`, category: harbour, tags: 'Pine, Cone' });
    // Newer articles with one of the two tags each: the four sharing both are the last of each tag's newest 50 (the article itself never counts).
    for (let i = 1; i <= 46; i += 1)
      await createArticle(app.strapi, { title: `Pine only ${i}`, slug: `pine-only-${i}`, category: moss, tags: 'Pine' });
    for (let i = 1; i <= 46; i += 1)
      await createArticle(app.strapi, { title: `Cone only ${i}`, slug: `cone-only-${i}`, category: moss, tags: 'Cone' });
    expect((await relatedOf('pine-and-cone')).map((article) => article.slug)).toEqual([
      'pine-and-cone-4',
      'pine-and-cone-3',
      'pine-and-cone-2',
      'pine-and-cone-1',
    ]);

    // Each new article shares one tag, ranking below the four; together they push the oldest of the four out of both tags' newest 50.
    await post({ title: 'Pine in snow', content: 'Needles.', category: 'Moss', tags: 'Pine' });
    expect((await relatedOf('pine-and-cone')).map((article) => article.slug)).toEqual([
      'pine-and-cone-4',
      'pine-and-cone-3',
      'pine-and-cone-2',
      'pine-and-cone-1',
    ]);
    const { body } = await post({ title: 'Cone in snow', content: 'Scales.', category: 'Moss', tags: 'Cone' });
    expect((await relatedOf('pine-and-cone')).map((article) => article.slug)).toEqual([
      'pine-and-cone-4',
      'pine-and-cone-3',
      'pine-and-cone-2',
      body.data.slug,
    ]);
  });

  it("are chosen again when articles published together in one transaction push one of them out of its tag's newest 50", async () => {
    const harbour = (await app.strapi.documents(CATEGORY_UID).findFirst({ filters: { slug: 'harbour' } }))!.documentId;
    const moss = (await app.strapi.documents(CATEGORY_UID).findFirst({ filters: { slug: 'moss' } }))!.documentId;
    await createArticle(app.strapi, { title: 'Bramble', slug: 'bramble', category: harbour, tags: 'Bramble' });
    // Of the tag's 50 newest, four are of bramble's category: three newest and the oldest, the last of its newest 50.
    await createArticle(app.strapi, { title: 'Bramble at the edge', slug: 'bramble-at-the-edge', category: harbour, tags: 'Bramble' });
    for (let i = 1; i <= 46; i += 1)
      await createArticle(app.strapi, { title: `Bramble in moss ${i}`, slug: `bramble-in-moss-${i}`, category: moss, tags: 'Bramble' });
    for (let i = 1; i <= 3; i += 1)
      await createArticle(app.strapi, { title: `Bramble nearby ${i}`, slug: `bramble-nearby-${i}`, category: harbour, tags: 'Bramble' });
    expect((await relatedOf('bramble')).map((article) => article.slug)).toEqual([
      'bramble-nearby-3',
      'bramble-nearby-2',
      'bramble-nearby-1',
      'bramble-at-the-edge',
    ]);

    // Three drafts of another category, published at once in one transaction (as the Content Manager's bulk publish does): each ranks below the four, together they push the edge out.
    const drafts: string[] = [];
    for (let i = 1; i <= 3; i += 1)
      drafts.push(
        await createArticle(app.strapi, {
          title: `Bramble in bloom ${i}`,
          slug: `bramble-in-bloom-${i}`,
          category: moss,
          tags: 'Bramble',
          status: 'draft',
        }),
      );
    await app.strapi.db.transaction(() =>
      Promise.all(drafts.map((documentId) => app.strapi.documents(ARTICLE_UID).publish({ documentId }))),
    );
    const related = (await relatedOf('bramble')).map((article) => article.slug);
    expect(related.slice(0, 3)).toEqual(['bramble-nearby-3', 'bramble-nearby-2', 'bramble-nearby-1']);
    expect(['bramble-in-bloom-1', 'bramble-in-bloom-2', 'bramble-in-bloom-3']).toContain(related[3]);
  });

  it('stay remembered when an article of their category but none of their tags is published, while a list filled from the category is chosen again', async () => {
    const tagged = await relatedOf('moss-1');
    expect(tagged.map((article) => article.slug)).toEqual(['moss-5', 'moss-4', 'moss-3', 'moss-2']);
    expect((await relatedOf('lone-moss')).map((article) => article.slug)).not.toContain('moss-in-winter');
    await renameInTable(app, 'moss-5', 'Quietly renamed');

    await post({ title: 'Moss in winter', content: 'Frost.', category: 'Moss', tags: 'Winter' });
    // It shares no tag with moss-1, so it cannot be among its related articles: not chosen again.
    expect((await relatedOf('moss-1'))[0].title).toBe(tagged[0].title);
    // Lone moss's related articles are its category's newest: chosen again, with the new one first.
    expect((await relatedOf('lone-moss'))[0].slug).toBe('moss-in-winter');
  });
});

describe('filtered lists and searches after a write', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startStrapi({ env: { ARTIKEL_READ_CACHE_MB: '64' }, token: 'full-access' });
  });

  afterAll(async () => {
    await app.stop();
  });

  const titlesOf = async (query: string) =>
    (await app.api().get(`/api/artikel?${query}`).expect(200)).body.data.map((article: { title: string }) => article.title);
  const post = (body: Record<string, string>) => app.api().post('/api/artikel').set(app.auth()).send(body).expect(201);

  it('stay remembered when an article outside their category or tag is published, and follow an article moved out of their category at once', async () => {
    const fjord = await createCategory(app.strapi, 'Fjord', 'fjord');
    const glacier = await createCategory(app.strapi, 'Glacier', 'glacier');
    const fjordArticle = await createArticle(app.strapi, { title: 'Fjord at dawn', slug: 'fjord-at-dawn', category: fjord, tags: 'Ice' });
    await createArticle(app.strapi, { title: 'Glacier tongue', slug: 'glacier-tongue', category: glacier, tags: 'Snow' });
    expect(await titlesOf('kategori=fjord')).toEqual(['Fjord at dawn']);
    expect(await titlesOf('kategori=Fjord&tag=Ice')).toEqual(['Fjord at dawn']);
    expect(await titlesOf('tag=Snow')).toEqual(['Glacier tongue']);
    await renameInTable(app, 'fjord-at-dawn', 'Renamed unannounced');
    await renameInTable(app, 'glacier-tongue', 'Renamed unannounced too');

    // In the glacier category, with the tag Ice: the fjord's lists and the Snow list cannot change.
    await post({ title: 'Ice on the glacier', content: 'Blue.', category: 'Glacier', tags: 'Ice' });
    expect(await titlesOf('kategori=fjord')).toEqual(['Fjord at dawn']);
    expect(await titlesOf('kategori=Fjord&tag=Ice')).toEqual(['Fjord at dawn']);
    expect(await titlesOf('tag=Snow')).toEqual(['Glacier tongue']);
    // The lists it entered are computed again.
    expect(await titlesOf('tag=Ice')).toEqual(['Ice on the glacier', 'Renamed unannounced']);
    expect(await titlesOf('kategori=glacier')).toEqual(['Ice on the glacier', 'Renamed unannounced too']);

    // Moved to the glacier: gone from the fjord's list at once.
    await app.strapi.documents(ARTICLE_UID).update({ documentId: fjordArticle, data: { category: glacier } });
    await app.strapi.documents(ARTICLE_UID).publish({ documentId: fjordArticle });
    expect(await titlesOf('kategori=fjord')).toEqual([]);
    expect(await titlesOf('kategori=Fjord&tag=Ice')).toEqual([]);
    // Published from its draft, which the table change did not touch.
    expect(await titlesOf('kategori=glacier')).toEqual(['Fjord at dawn', 'Ice on the glacier', 'Renamed unannounced too']);
  });

  it('follow a new category that takes the name their filter names another category by', async () => {
    const foo = await createCategory(app.strapi, 'Foo', 'bar');
    await createArticle(app.strapi, { title: 'In foo', slug: 'in-foo', category: foo });
    expect(await titlesOf('kategori=bar')).toEqual(['In foo']);

    // "bar" now names two categories: one by its slug, the new one by its name.
    const bar = await createCategory(app.strapi, 'Bar', 'bar-by-name');
    await createArticle(app.strapi, { title: 'In bar', slug: 'in-bar', category: bar });
    expect(await titlesOf('kategori=bar')).toEqual(['In bar', 'In foo']);
  });

  it('stay remembered when an article they cannot find is published, and are computed again when one they find is written', async () => {
    const heron = await createArticle(app.strapi, { title: 'Heron at the lake', slug: 'heron-at-the-lake', content: 'Grey wings.' });
    expect(await titlesOf('q=heron')).toEqual(['Heron at the lake']);
    expect(await titlesOf('q=wings')).toEqual(['Heron at the lake']);
    await renameInTable(app, 'heron-at-the-lake', 'Renamed unannounced');

    await post({ title: 'Boats at dusk', content: 'Masts and ropes.', category: 'Harbour' });
    expect(await titlesOf('q=heron')).toEqual(['Heron at the lake']);

    // An edit of the heron's page that drops "wings": the search for it changes, the one for "heron" changes too (the article is in it).
    await app.strapi.documents(ARTICLE_UID).update({ documentId: heron, data: { content: 'Grey feathers.' } });
    await app.strapi.documents(ARTICLE_UID).publish({ documentId: heron });
    expect(await titlesOf('q=wings')).toEqual([]);
    expect(await titlesOf('q=heron')).toEqual(['Heron at the lake']);
    await renameInTable(app, 'heron-at-the-lake', 'Renamed unannounced again');

    await post({ title: 'A heron in flight', content: 'Wide wings.', category: 'Harbour' });
    expect(await titlesOf('q=heron')).toEqual(['A heron in flight', 'Renamed unannounced again']);
  });

  it("with a word outside ASCII are computed again after any article's write, as the database folds such letters its own way", async () => {
    await createArticle(app.strapi, { title: 'Möwe am Deich', slug: 'moewe-am-deich', content: 'Salzwiesen.' });
    expect(await titlesOf('q=möwe')).toEqual(['Möwe am Deich']);
    await renameInTable(app, 'moewe-am-deich', 'Möwe, renamed unannounced');

    await post({ title: 'Boats at dawn', content: 'Masts.', category: 'Harbour' });
    expect(await titlesOf('q=möwe')).toEqual(['Möwe, renamed unannounced']);
  });
});

describe('a new category', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startStrapi({ env: { ARTIKEL_READ_CACHE_MB: '64' }, category: { name: 'Studio', slug: 'studio' } });
    await createArticle(app.strapi, { title: 'Paper backdrops', slug: 'paper-backdrops', category: app.categoryId, tags: 'Backdrops' });
  });

  afterAll(async () => {
    await app.stop();
  });

  const categoryNames = async () =>
    ((await app.api().get('/api/artikel/categories').expect(200)).body.data as Array<{ name: string }>).map((category) => category.name);
  const titleOf = async (slug: string) => (await app.api().get(`/api/artikel/${slug}`).expect(200)).body.data.title as string;

  it('shows in the category list at once, while article pages stay remembered', async () => {
    const before = await titleOf('paper-backdrops');
    expect(await categoryNames()).not.toContain('Seamless');
    await renameInTable(app, 'paper-backdrops', 'Renamed unannounced');

    await app.strapi.documents(CATEGORY_UID).create({ data: { name: 'Seamless', slug: 'seamless' } });
    expect(await categoryNames()).toContain('Seamless');
    // No article is in it: the page is not read again, so the unannounced title is not seen.
    expect(await titleOf('paper-backdrops')).toBe(before);
  });

  it("that an article is put in when it is created shows on that article's page at once", async () => {
    const [article] = (await app.strapi
      .documents(ARTICLE_UID)
      .findMany({ filters: { slug: 'paper-backdrops' }, status: 'published' })) as Array<{ id: number }>;
    expect((await app.api().get('/api/artikel/paper-backdrops').expect(200)).body.data.category?.slug).not.toBe('muslin');

    await app.strapi.documents(CATEGORY_UID).create({ data: { name: 'Muslin', slug: 'muslin', articles: { connect: [article.id] } } });
    expect((await app.api().get('/api/artikel/paper-backdrops').expect(200)).body.data.category).toEqual({
      name: 'Muslin',
      slug: 'muslin',
    });
  });
});

describe('the read cache turned off (ARTIKEL_READ_CACHE_MB=0)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startStrapi({ env: { ARTIKEL_READ_CACHE_MB: '0' } });
    await createArticle(app.strapi, { title: 'Uncached', slug: 'uncached', tags: 'Fog' });
  });

  afterAll(async () => {
    await app.stop();
  });

  it('computes every read from the database: a change in the table shows at the next read', async () => {
    expect((await app.api().get('/api/artikel/uncached').expect(200)).body.data.title).toBe('Uncached');
    expect((await app.api().get('/api/artikel').expect(200)).body.data[0].title).toBe('Uncached');
    await renameInTable(app, 'uncached', 'Changed in the table');
    expect((await app.api().get('/api/artikel/uncached').expect(200)).body.data.title).toBe('Changed in the table');
    expect((await app.api().get('/api/artikel').expect(200)).body.data[0].title).toBe('Changed in the table');
    expect(usageOf(app)).toEqual({ entries: 0, bytes: 0, maxBytes: 0, sharedTests: 0 });
  });
});
