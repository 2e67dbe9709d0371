import { ARTICLES_PATH, CATEGORIES_PATH, connect, registerEditor, type Editor } from '../helpers/admin';
import { isContractError, storedRowCounts } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

let app: TestApp;
let editor: Editor;

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: { name: 'Night', slug: 'night' } });
  editor = await registerEditor(app);
  await app.api().post('/api/artikel').set(app.auth()).send({ title: 'Stars', category: 'Night', content: 'Long exposures.' }).expect(201);
});

afterAll(async () => {
  await app.stop();
});

function expectRefused(
  response: { status: number; body: unknown },
  field: string,
  message = `${field} must not contain the NUL character (U+0000)`,
) {
  expect(response.status).toBe(400);
  expect(isContractError(response)).toBe(true);
  const errors = (response.body as { error: { details: { errors: Array<{ path: string[]; message: string }> } } }).error.details.errors;
  expect(errors).toContainEqual({ path: [field], message, name: 'ValidationError' });
}

describe('a NUL character, which PostgreSQL cannot store or compare', () => {
  it('in q, kategori or tag is a 400 naming the parameter, never a page of every article', async () => {
    for (const parameter of ['q', 'kategori', 'tag']) {
      expectRefused(await app.api().get(`/api/artikel?${parameter}=%00`), parameter);
      expectRefused(await app.api().get(`/api/artikel?${parameter}=st%00ars`), parameter);
    }
  });

  it('in a slug is a 400 naming the slug', async () => {
    expectRefused(await app.api().get('/api/artikel/stars%00'), 'slug');
  });

  it('in any field of a POST is a 400 naming each such field, and stores nothing', async () => {
    const before = await storedRowCounts(app.strapi);
    const response = await app
      .api()
      .post('/api/artikel')
      .set(app.auth())
      .send({ title: 'Null\u0000title', category: 'Ni\u0000ght', content: 'Body.', tags: 'a\u0000' });
    for (const field of ['title', 'category', 'tags']) expectRefused(response, field);
    expect(await storedRowCounts(app.strapi)).toEqual(before);
  });

  it('in an article or category saved in the admin is a 400 under the field, in the editor’s Indonesian, and stores nothing', async () => {
    const before = await storedRowCounts(app.strapi);
    expectRefused(
      await editor.post(ARTICLES_PATH, { title: 'Admin\u0000title', content: 'Body.', category: connect(app.categoryId) }),
      'title',
      'Judul tidak boleh memuat karakter NUL (U+0000)',
    );
    expectRefused(await editor.post(CATEGORIES_PATH, { name: 'Dark\u0000room' }), 'name', 'Nama tidak boleh memuat karakter NUL (U+0000)');
    expect(await storedRowCounts(app.strapi)).toEqual(before);
  });
});
