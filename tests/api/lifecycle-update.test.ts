import { expectEverywhere, expectNowhere, publicPresence, SITE_ARTICLE_URL } from '../helpers/public-reads';
import { isContractError } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';
import { createApiToken } from '../helpers/tokens';

// A strong entity tag (RFC 9110): quoted, no W/ prefix.
const STRONG_ETAG = /^"[\x21\x23-\x7e]+"$/;

let app: TestApp;
let counter = 0;

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: true, env: { SITE_ARTICLE_URL } });
});

afterAll(async () => {
  await app.stop();
});

interface Article {
  id: string;
  slug: string;
  title: string;
  summary: string;
  content: string;
  tags: string[];
  author: string;
  views: number;
  status: string;
  category: { name: string; slug: string };
  cover_image_url: string | null;
  meta_title: string;
  meta_description: string;
  meta_keywords: string | null;
  published_at: string | null;
  updated_at: string;
}

/** Posts an article no other test uses (in the Studio category) and returns it as the 201 gave it. */
async function create(fields: Record<string, string> = {}): Promise<Article> {
  counter += 1;
  const body = {
    title: `Fog over the lake ${counter}`,
    category: 'Studio',
    content: `Grey morning number ${counter}. Boats wait.`,
    ...fields,
  };
  return (await app.api().post('/api/artikel').set(app.auth()).send(body).expect(201)).body.data as Article;
}

const patch = (slug: string, body: unknown, headers: Record<string, string> = {}) =>
  app
    .api()
    .patch(`/api/artikel/${slug}`)
    .set({ ...app.auth(), ...headers })
    .send(body as object);

/** The article as its public GET shows it (counts one view). */
async function read(slug: string): Promise<Article> {
  return (await app.api().get(`/api/artikel/${slug}`).expect(200)).body.data as Article;
}

/** What a write may not change behind a refusal: everything but the view count. */
function withoutViews(article: Article) {
  const { views: _views, ...rest } = article;
  return rest;
}

function refusedFields(body: { error: { details: { errors: Array<{ path: string[] }> } } }): string[] {
  return body.error.details.errors.map((error) => error.path.join('.')).sort();
}

describe('PATCH /api/artikel/{slug} credentials', () => {
  it('refuses a request without a token or with an unknown one with a 401, and changes nothing', async () => {
    const article = await create();
    const anonymous = await app.api().patch(`/api/artikel/${article.slug}`).send({ title: 'Stolen' }).expect(401);
    expect(anonymous.body).toMatchObject({ data: null, error: { status: 401, name: 'UnauthorizedError' } });
    await app
      .api()
      .patch(`/api/artikel/${article.slug}`)
      .set('Authorization', 'Bearer not-a-real-token')
      .send({ title: 'Stolen' })
      .expect(401);
    expect((await read(article.slug)).title).toBe(article.title);
  });

  it('refuses a read-only token and a custom token that may only create with a 403, and changes nothing', async () => {
    const article = await create();
    const readOnly = await createApiToken(app.strapi, 'read-only');
    const createOnly = await createApiToken(app.strapi, 'custom', ['plugin::artikel.artikel.create']);
    for (const token of [readOnly, createOnly]) {
      const refused = await app
        .api()
        .patch(`/api/artikel/${article.slug}`)
        .set('Authorization', `Bearer ${token}`)
        .send({ title: 'Not yours' })
        .expect(403);
      expect(isContractError(refused)).toBe(true);
      expect(refused.body.error.name).toBe('ForbiddenError');
    }
    expect((await read(article.slug)).title).toBe(article.title);
  });

  it('accepts a custom token holding the update action', async () => {
    const article = await create();
    const updater = await createApiToken(app.strapi, 'custom', ['plugin::artikel.artikel.update']);
    const answer = await app
      .api()
      .patch(`/api/artikel/${article.slug}`)
      .set('Authorization', `Bearer ${updater}`)
      .send({ title: 'Changed with a custom token' })
      .expect(200);
    expect(answer.body.data.title).toBe('Changed with a custom token');
  });
});

describe('PATCH /api/artikel/{slug} changes', () => {
  it('changes only the fields sent and answers 200 with the full article and the ETag its GET then carries', async () => {
    const article = await create({ tags: 'Lake, Morning', author: 'Guest Author' });
    const answer = await patch(article.slug, { summary: 'Boats in the fog, at dawn.', tags: 'Fog, Boats' }).expect(200);
    expect(answer.headers.etag).toMatch(STRONG_ETAG);
    const changed = answer.body.data as Article;
    expect(changed).toMatchObject({
      id: article.id,
      slug: article.slug,
      title: article.title,
      content: article.content,
      author: 'Guest Author',
      category: { name: 'Studio', slug: 'studio' },
      summary: 'Boats in the fog, at dawn.',
      tags: ['Fog', 'Boats'],
      status: 'published',
      published_at: article.published_at,
    });
    expect(Object.keys(changed).sort()).toEqual(Object.keys(article).sort());

    const got = await app.api().get(`/api/artikel/${article.slug}`).expect(200);
    expect(withoutViews(got.body.data as Article)).toEqual(withoutViews(changed));
    expect(got.headers.etag).toBe(answer.headers.etag);
  });

  it('keeps the slug when the title changes, and a generated meta_title follows the new title', async () => {
    const article = await create();
    const changed = (await patch(article.slug, { title: 'An entirely new title' }).expect(200)).body.data as Article;
    expect(changed.slug).toBe(article.slug);
    expect(changed.title).toBe('An entirely new title');
    expect(changed.meta_title).toBe('An entirely new title');
    expect((await read(article.slug)).title).toBe('An entirely new title');
    await app.api().get('/api/artikel/an-entirely-new-title').expect(404);
  });

  it('clears an optional field sent as "" and gives a field with a default its default again', async () => {
    const typed = {
      title: 'Typed everything',
      category: 'Studio',
      content: 'Long light over the hills. A second sentence follows here.',
    };
    const article = await create({
      ...typed,
      summary: 'A typed summary.',
      meta_title: 'A typed meta title',
      meta_description: 'A typed description.',
      author: 'Guest Author',
      tags: 'Hills, Light',
      cover_image_url: 'https://cdn.studio.example/hills.jpg',
      meta_keywords: 'hills, light',
    });
    // What the same text gets when nothing is typed: the defaults POST fills in.
    const defaults = (await app.api().post('/api/artikel?dry_run=true').set(app.auth()).send(typed).expect(200)).body.data as Article;

    const cleared = (
      await patch(article.slug, {
        summary: '',
        meta_title: '',
        meta_description: '',
        author: '',
        tags: '',
        cover_image_url: '',
        meta_keywords: '',
      }).expect(200)
    ).body.data as Article;
    const expected = {
      summary: defaults.summary,
      meta_title: defaults.meta_title,
      meta_description: defaults.meta_description,
      author: 'Lichtbild Studio',
      tags: [],
      cover_image_url: null,
      meta_keywords: null,
    };
    expect(cleared).toMatchObject(expected);
    expect(defaults.author).toBe('Lichtbild Studio');
    expect(await read(article.slug)).toMatchObject(expected);
  });

  it('moves an article to another category, and each category counts it where it now is', async () => {
    const article = await create();
    const before = await app.api().get('/api/artikel/categories').expect(200);
    const countOf = (body: { data: Array<{ slug: string; article_count: number }> }, slug: string) =>
      body.data.find((category) => category.slug === slug)?.article_count ?? 0;
    const changed = (await patch(article.slug, { category: 'Harbour Nights' }).expect(200)).body.data as Article;
    expect(changed.category).toEqual({ name: 'Harbour Nights', slug: 'harbour-nights' });
    const after = await app.api().get('/api/artikel/categories').expect(200);
    expect(countOf(after.body, 'studio')).toBe(countOf(before.body, 'studio') - 1);
    expect(countOf(after.body, 'harbour-nights')).toBe(1);
    expect((await read(article.slug)).category.slug).toBe('harbour-nights');
  });

  it('refuses fields a client may not set, naming each, and changes nothing', async () => {
    const article = await create();
    const before = withoutViews(await read(article.slug));
    const refused = await patch(article.slug, { title: 'Sneaky', views: '1000', id: 'x', published_at: '2020-01-01T00:00:00Z' }).expect(
      400,
    );
    expect(isContractError(refused)).toBe(true);
    expect(refused.body.error.name).toBe('ValidationError');
    expect(refusedFields(refused.body)).toEqual(['id', 'published_at', 'views']);
    expect(refused.body.error.message).toMatch(/views/);
    expect(withoutViews(await read(article.slug))).toEqual(before);
  });

  it('refuses a body that changes nothing: an empty one, or one with the values already stored', async () => {
    const article = await create({ tags: 'Stillness' });
    const before = withoutViews(await read(article.slug));
    for (const body of [{}, { title: article.title, tags: 'Stillness' }]) {
      const refused = await patch(article.slug, body).expect(400);
      expect(isContractError(refused)).toBe(true);
      expect(refused.body.error.name).toBe('ValidationError');
    }
    expect(withoutViews(await read(article.slug))).toEqual(before);
  });

  it('refuses wrong types, blank required fields and broken rules, naming every field, and changes nothing', async () => {
    const article = await create();
    const before = withoutViews(await read(article.slug));
    const wrongTypes = await patch(article.slug, { title: 5, tags: ['a', 'b'], summary: null, content: { text: 'x' } }).expect(400);
    expect(refusedFields(wrongTypes.body)).toEqual(['content', 'summary', 'tags', 'title']);
    const blank = await patch(article.slug, { title: '  ', category: '', content: '\n' }).expect(400);
    expect(refusedFields(blank.body)).toEqual(['category', 'content', 'title']);
    const rules = await patch(article.slug, {
      cover_image_url: 'http://insecure.example/a.jpg',
      status: 'live',
      meta_title: 'm'.repeat(301),
    }).expect(400);
    expect(refusedFields(rules.body)).toEqual(['cover_image_url', 'meta_title', 'status']);
    const notAnObject = await patch(article.slug, ['title']).expect(400);
    expect(isContractError(notAnObject)).toBe(true);
    expect(withoutViews(await read(article.slug))).toEqual(before);
  });

  it('answers 404 NotFoundError for a slug no article has', async () => {
    const missing = await patch('no-such-article-anywhere', { title: 'Ghost' }).expect(404);
    expect(isContractError(missing)).toBe(true);
    expect(missing.body.error.name).toBe('NotFoundError');
    await app.api().get('/api/artikel/no-such-article-anywhere').expect(404);
  });

  it('finds a draft by its slug, changes it out of sight, and publishes it with status published', async () => {
    const draft = await create({ status: 'draft' });
    expect(draft.status).toBe('draft');
    const edited = (await patch(draft.slug, { title: 'Draft, edited' }).expect(200)).body.data as Article;
    expect(edited).toMatchObject({ slug: draft.slug, title: 'Draft, edited', status: 'draft', published_at: null });
    expectNowhere(await publicPresence(app, draft.slug));

    const published = (await patch(draft.slug, { status: 'published' }).expect(200)).body.data as Article;
    expect(published.status).toBe('published');
    expect(published.published_at).not.toBeNull();
    expectEverywhere(await publicPresence(app, draft.slug));
    expect((await read(draft.slug)).title).toBe('Draft, edited');
  });
});

describe('PATCH status: an article taken off the site and put back', () => {
  it('takes a published article off every public read with "draft", keeps its views, and puts it back with "published"', async () => {
    const article = await create();
    await read(article.slug);
    const seen = await read(article.slug);
    expect(seen.views).toBe(2);
    const live = await publicPresence(app, article.slug);
    expectEverywhere(live);
    expect(live.inLatest).toBe(true);

    const drafted = await patch(article.slug, { status: 'draft' }).expect(200);
    expect(drafted.body.data).toMatchObject({ slug: article.slug, status: 'draft', published_at: null });
    const hidden = await publicPresence(app, article.slug);
    expectNowhere(hidden);
    expect(hidden.listTotal).toBe(live.listTotal - 1);
    expect(hidden.categoryCount).toBe(live.categoryCount - 1);
    await app.api().get(`/api/artikel/${article.slug}`).expect(404);

    const republished = await patch(article.slug, { status: 'published' }).expect(200);
    expect(republished.body.data).toMatchObject({ slug: article.slug, status: 'published' });
    const back = await publicPresence(app, article.slug);
    expectEverywhere(back);
    expect(back.listTotal).toBe(live.listTotal);
    expect(back.categoryCount).toBe(live.categoryCount);
    expect((await read(article.slug)).views).toBe(3);
  });
});

describe('PATCH with If-Match', () => {
  it('accepts the ETag of the public GET, even after more views were counted', async () => {
    const article = await create();
    const tag = (await app.api().get(`/api/artikel/${article.slug}`).expect(200)).headers.etag as string;
    await read(article.slug);
    await read(article.slug);
    const answer = await patch(article.slug, { title: 'Changed under a precondition' }, { 'If-Match': tag }).expect(200);
    expect(answer.body.data.title).toBe('Changed under a precondition');
  });

  it('accepts the ETag of the last PATCH answer, also on a draft that has no public GET', async () => {
    const draft = await create({ status: 'draft' });
    const first = await patch(draft.slug, { title: 'First edit' }).expect(200);
    const second = await patch(draft.slug, { title: 'Second edit' }, { 'If-Match': first.headers.etag as string }).expect(200);
    expect(second.headers.etag).toMatch(STRONG_ETAG);
    expect(second.headers.etag).not.toBe(first.headers.etag);
    await patch(draft.slug, { summary: 'Third edit.' }, { 'If-Match': second.headers.etag as string }).expect(200);
  });

  it('refuses a stale ETag, taken before another PATCH, with 412 PreconditionFailedError and changes nothing', async () => {
    const article = await create();
    const stale = (await app.api().get(`/api/artikel/${article.slug}`).expect(200)).headers.etag as string;
    await patch(article.slug, { title: 'Someone else was faster' }).expect(200);
    const before = withoutViews(await read(article.slug));
    const refused = await patch(article.slug, { title: 'Lost update' }, { 'If-Match': stale }).expect(412);
    expect(isContractError(refused)).toBe(true);
    expect(refused.body.error.name).toBe('PreconditionFailedError');
    expect(withoutViews(await read(article.slug))).toEqual(before);
  });

  it('refuses a malformed If-Match with a 400 and changes nothing', async () => {
    const article = await create();
    const refused = await patch(article.slug, { title: 'Malformed precondition' }, { 'If-Match': 'abc' }).expect(400);
    expect(isContractError(refused)).toBe(true);
    expect((await read(article.slug)).title).toBe(article.title);
  });

  it('lets If-Match: * match any existing article', async () => {
    const article = await create();
    const answer = await patch(article.slug, { title: 'Star precondition' }, { 'If-Match': '*' }).expect(200);
    expect(answer.body.data.title).toBe('Star precondition');
  });
});

describe('PATCH with an Idempotency-Key', () => {
  it('replays the first answer for the same key and body, and applies the change once', async () => {
    const article = await create();
    const key = `patch-${Date.now()}-${counter}`;
    const first = await patch(article.slug, { summary: 'Once only.' }, { 'Idempotency-Key': key }).expect(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await patch(article.slug, { summary: 'Once only.' }, { 'Idempotency-Key': key }).expect(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    const stored = await read(article.slug);
    expect(stored.summary).toBe('Once only.');
    expect(stored.updated_at).toBe(first.body.data.updated_at);
  });

  it('answers 422 to the same key with another body, and changes nothing', async () => {
    const article = await create();
    const key = `patch-other-${Date.now()}-${counter}`;
    await patch(article.slug, { summary: 'The first body.' }, { 'Idempotency-Key': key }).expect(200);
    const refused = await patch(article.slug, { summary: 'Another body.' }, { 'Idempotency-Key': key }).expect(422);
    expect(isContractError(refused)).toBe(true);
    expect(refused.body.error.message).toMatch(/Idempotency-Key/);
    expect((await read(article.slug)).summary).toBe('The first body.');
  });
});

describe('PATCH ?dry_run=true', () => {
  it('answers 200 with the article as it would be, meta.dry_run true, and stores nothing', async () => {
    const article = await create();
    const before = withoutViews(await read(article.slug));
    const dry = await app
      .api()
      .patch(`/api/artikel/${article.slug}?dry_run=true`)
      .set(app.auth())
      .send({ title: 'Only imagined', tags: 'Dream' })
      .expect(200);
    expect(dry.body.meta).toEqual({ dry_run: true });
    expect(dry.body.data).toMatchObject({ slug: article.slug, title: 'Only imagined', tags: ['Dream'] });
    expect(withoutViews(await read(article.slug))).toEqual(before);
  });
});
