import { createApiToken } from '../helpers/tokens';
import { startStrapi, type TestApp } from '../helpers/strapi';

let app: TestApp;

const validBody = { title: 'Golden hour', category: 'Weddings', content: 'Warm light.' };

async function storedArticleRows(): Promise<number> {
  const row = (await app.strapi.db.connection('articles').count({ total: '*' }).first()) as { total: number | string };
  return Number(row.total);
}

function errorPaths(body: { error: { details: { errors: Array<{ path: string[] }> } } }): string[] {
  return body.error.details.errors.map((error) => error.path.join('.')).sort();
}

const postWithFullAccess = () =>
  app
    .api()
    .post('/api/artikel')
    .set(app.auth())
    .send({ ...validBody, title: 'Full access article' });

// The article a full-access token posts: by its own test or, when that test has not run, by the
// helper below (each test can run alone: npx jest <file> -t '<name>').
let fullAccessSlug: string | undefined;

/** The slug of the article posted with the full-access token. */
async function fullAccessArticleSlug(): Promise<string> {
  if (fullAccessSlug === undefined) fullAccessSlug = (await postWithFullAccess().expect(201)).body.data.slug as string;
  return fullAccessSlug;
}

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access' });
});

afterAll(async () => {
  await app.stop();
});

describe('POST /api/artikel authentication', () => {
  it('refuses a request without a token with a 401', async () => {
    const response = await app.api().post('/api/artikel').send(validBody).expect(401);
    expect(response.body).toMatchObject({ data: null, error: { status: 401, name: 'UnauthorizedError' } });
    expect(await storedArticleRows()).toBe(0);
  });

  it('refuses an unknown token with a 401', async () => {
    await app.api().post('/api/artikel').set('Authorization', 'Bearer not-a-real-token').send(validBody).expect(401);
    expect(await storedArticleRows()).toBe(0);
  });

  it('refuses a read-only token with a 403', async () => {
    const readOnly = await createApiToken(app.strapi, 'read-only');
    const response = await app.api().post('/api/artikel').set('Authorization', `Bearer ${readOnly}`).send(validBody).expect(403);
    expect(response.body).toMatchObject({ data: null, error: { status: 403, name: 'ForbiddenError' } });
    expect(await storedArticleRows()).toBe(0);
  });

  it('refuses a custom token without the create permission with a 403', async () => {
    const uploadOnly = await createApiToken(app.strapi, 'custom', ['plugin::upload.content-api.find']);
    await app.api().post('/api/artikel').set('Authorization', `Bearer ${uploadOnly}`).send(validBody).expect(403);
    expect(await storedArticleRows()).toBe(0);
  });

  it('accepts a custom token holding artikel.create', async () => {
    const createOnly = await createApiToken(app.strapi, 'custom', ['plugin::artikel.artikel.create']);
    const response = await app
      .api()
      .post('/api/artikel')
      .set('Authorization', `Bearer ${createOnly}`)
      .send({ ...validBody, title: 'Custom token article' })
      .expect(201);
    expect(response.body.data.slug).toBe('custom-token-article');
  });

  it('accepts a full-access token', async () => {
    const response = await postWithFullAccess().expect(201);
    fullAccessSlug = response.body.data.slug;
    expect(response.body.data.slug).toBe('full-access-article');
  });

  it('keeps reads public', async () => {
    expect(await fullAccessArticleSlug()).toBe('full-access-article');
    await app.api().get('/api/artikel').expect(200);
    await app.api().get('/api/artikel/full-access-article').expect(200);
  });
});

describe('POST /api/artikel validation', () => {
  const post = (body: unknown) =>
    app
      .api()
      .post('/api/artikel')
      .set(app.auth())
      .send(body as object);

  const rejects = async (body: unknown, paths: string[]) => {
    const before = await storedArticleRows();
    const response = await post(body).expect(400);
    expect(response.body.data).toBeNull();
    expect(response.body.error).toMatchObject({ status: 400, name: 'ValidationError' });
    expect(errorPaths(response.body)).toEqual([...paths].sort());
    expect(await storedArticleRows()).toBe(before);
    return response.body;
  };

  it('names every missing required field, the same way each time an empty body comes', async () => {
    const body = await rejects({}, ['category', 'content', 'title']);
    expect(body.error.details.errors.find((error: { path: string[] }) => error.path[0] === 'title').message).toBe('title is required');
    expect(await rejects({}, ['category', 'content', 'title'])).toEqual(body);
  });

  it('names every refused field in the message a workflow tool shows, in the order of the specification', async () => {
    const body = await rejects({ views: '100', tags: 5 }, ['category', 'content', 'tags', 'title', 'views']);
    expect(body.error.message).toBe(
      'views is not an allowed field (allowed: title, category, content, summary, slug, tags, cover_image_url, author, status, publish_at, meta_title, meta_description, meta_keywords); title is required; category is required; content is required; tags must be one text of comma-separated tags, such as "harbour, golden hour" (not a list)',
    );
  });

  it('refuses blank required fields', async () => {
    await rejects({ title: '   ', category: '\t', content: '\n' }, ['category', 'content', 'title']);
  });

  it('refuses fields the spec does not list, naming each', async () => {
    await rejects({ ...validBody, views: '100', id: 'x', published_at: '2020-01-01' }, ['id', 'published_at', 'views']);
    await rejects({ ...validBody, constructor: 'x', prototype: 'y' }, ['constructor', 'prototype']);
  });

  it('refuses a body carrying __proto__ before it is parsed into an object', async () => {
    const before = await storedArticleRows();
    const response = await app
      .api()
      .post('/api/artikel')
      .set(app.auth())
      .set('Content-Type', 'application/json')
      .send('{"title":"a","category":"b","content":"c","__proto__":{"admin":true}}')
      .expect(400);
    expect(response.body.error).toMatchObject({ status: 400, name: 'ValidationError', message: expect.stringContaining('__proto__') });
    expect(await storedArticleRows()).toBe(before);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('refuses values that are not strings', async () => {
    await rejects({ title: 5, category: ['Weddings'], content: { text: 'x' }, tags: ['a', 'b'], summary: null }, [
      'category',
      'content',
      'summary',
      'tags',
      'title',
    ]);
  });

  it('enforces the length limits of the contract', async () => {
    await rejects(
      {
        title: 't'.repeat(256),
        slug: 's'.repeat(192),
        category: 'c'.repeat(101),
        content: 'fine',
        author: 'a'.repeat(256),
        meta_title: 'm'.repeat(301),
        meta_description: 'd'.repeat(501),
        meta_keywords: 'k'.repeat(501),
        summary: 'u'.repeat(1001),
        cover_image_url: `https://example.com/${'x'.repeat(2040)}`,
      },
      ['author', 'category', 'cover_image_url', 'meta_description', 'meta_keywords', 'meta_title', 'slug', 'summary', 'title'],
    );
  });

  it('accepts values exactly at the limits', async () => {
    const response = await post({ ...validBody, title: 'T'.repeat(255), category: 'C'.repeat(100), summary: 'S'.repeat(1000) }).expect(201);
    expect(response.body.data.title).toHaveLength(255);
  });

  it('allows at most 20 tags of at most 50 characters', async () => {
    await rejects({ ...validBody, tags: Array.from({ length: 21 }, (_, index) => `tag${index}`).join(',') }, ['tags']);
    await rejects({ ...validBody, tags: `ok, ${'x'.repeat(51)}` }, ['tags']);
  });

  it('accepts only "published", "draft" or "scheduled" as status', async () => {
    const body = await rejects({ ...validBody, status: 'live' }, ['status']);
    expect(body.error.details.errors[0].message).toBe('status must be "published", "draft" or "scheduled"');
    await rejects({ ...validBody, status: 'PUBLISHED' }, ['status']);
  });

  it('accepts only an absolute https URL as cover_image_url', async () => {
    for (const url of ['http://example.com/a.jpg', 'javascript:alert(1)', 'data:image/png;base64,AAAA', '/uploads/a.jpg', 'https://']) {
      await rejects({ ...validBody, cover_image_url: url }, ['cover_image_url']);
    }
    const response = await post({ ...validBody, title: 'With cover', cover_image_url: 'https://cdn.example.com/cover.jpg' }).expect(201);
    expect(response.body.data.cover_image_url).toBe('https://cdn.example.com/cover.jpg');
  });

  it('answers malformed JSON with a 400 ValidationError', async () => {
    const before = await storedArticleRows();
    const response = await app
      .api()
      .post('/api/artikel')
      .set(app.auth())
      .set('Content-Type', 'application/json')
      .send('{"title": "x",')
      .expect(400);
    expect(response.body).toMatchObject({
      data: null,
      error: { status: 400, name: 'ValidationError', message: 'The request body is not valid JSON' },
    });
    expect(await storedArticleRows()).toBe(before);
  });

  it('answers a JSON body that is not an object with a 400', async () => {
    await rejects(['not', 'an', 'object'], ['']);
  });

  it('answers a body over 1 MB with a 413 PayloadTooLargeError', async () => {
    const before = await storedArticleRows();
    const response = await post({ ...validBody, content: 'x'.repeat(1024 * 1024 + 10) }).expect(413);
    expect(response.body).toMatchObject({ data: null, error: { status: 413, name: 'PayloadTooLargeError' } });
    expect(await storedArticleRows()).toBe(before);
  });
});
