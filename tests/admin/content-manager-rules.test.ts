import { ARTICLES_PATH, CATEGORIES_PATH, connect, registerEditor, uniqueTitle, type Editor } from '../helpers/admin';
import { isContractError, storedRowCounts } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';
import { createApiToken } from '../helpers/tokens';

let app: TestApp;
let editor: Editor;

beforeAll(async () => {
  app = await startStrapi({ category: { name: 'Portraits', slug: 'portraits' } });
  editor = await registerEditor(app);
});

afterAll(async () => {
  await app.stop();
});

interface FieldErrorBody {
  error: { status: number; name: string; message: string; details: { errors: Array<{ path: string[]; message: string }> } };
}

function articleForm(title: string, fields: Record<string, unknown> = {}) {
  return { title, content: `Window light for ${title}.`, category: connect(app.categoryId), ...fields };
}

/** The fields an answer refuses, as the Content Manager shows them under each field. */
function refusedFields(body: unknown): string[] {
  return (body as FieldErrorBody).error.details.errors.map((error) => error.path.join('.'));
}

/** Every article field the edit form holds, as the Content Manager sends them back on save. */
async function editForm(documentId: string): Promise<Record<string, unknown>> {
  const document = (await editor.get(`${ARTICLES_PATH}/${documentId}`).expect(200)).body.data as Record<string, unknown>;
  const fields = [
    'title',
    'slug',
    'summary',
    'content',
    'tags',
    'cover_image_url',
    'author',
    'meta_title',
    'meta_description',
    'meta_keywords',
  ];
  return Object.fromEntries(fields.map((field) => [field, document[field] ?? null]));
}

async function createInAdmin(
  title: string,
  fields: Record<string, unknown> = {},
): Promise<Record<string, unknown> & { documentId: string }> {
  return (await editor.post(ARTICLES_PATH, articleForm(title, fields)).expect(201)).body.data;
}

describe('the rules POST enforces hold in the Content Manager', () => {
  it('refuses a javascript: cover URL with a 400 under the field and stores nothing', async () => {
    const before = await storedRowCounts(app.strapi);
    const response = await editor
      .post(ARTICLES_PATH, articleForm(uniqueTitle('Bad cover'), { cover_image_url: 'javascript:alert(4)' }))
      .expect(400);

    expect(isContractError(response)).toBe(true);
    expect(response.body.error.name).toBe('ValidationError');
    expect(refusedFields(response.body)).toEqual(['cover_image_url']);
    expect(await storedRowCounts(app.strapi)).toEqual(before);
  });

  it('refuses an edit that breaks several limits, naming every field, and keeps the stored article as it was', async () => {
    const created = await createInAdmin(uniqueTitle('Within limits'));
    const tooManyTags = Array.from({ length: 21 }, (_, index) => `tag${index}`).join(', ');
    const response = await editor
      .put(`${ARTICLES_PATH}/${created.documentId}`, {
        title: 'x'.repeat(256),
        tags: tooManyTags,
        meta_description: 'd'.repeat(501),
        cover_image_url: 'http://insecure.example/a.jpg',
      })
      .expect(400);

    expect(isContractError(response)).toBe(true);
    expect(refusedFields(response.body).sort()).toEqual(['cover_image_url', 'meta_description', 'tags', 'title']);
    expect((await editor.get(`${ARTICLES_PATH}/${created.documentId}`).expect(200)).body.data.title).toBe(created.title);
  });

  it('refuses a tag over 50 characters and a slug that is a route', async () => {
    const response = await editor
      .post(ARTICLES_PATH, articleForm(uniqueTitle('Bad tag'), { tags: `fine, ${'t'.repeat(51)}`, slug: 'latest' }))
      .expect(400);
    expect(refusedFields(response.body).sort()).toEqual(['slug', 'tags']);
  });

  it('shows a taken slug under the slug field in the admin, while POST answers 409', async () => {
    const first = await createInAdmin(uniqueTitle('First owner'));
    const response = await editor.post(ARTICLES_PATH, articleForm(uniqueTitle('Second owner'), { slug: first.slug })).expect(400);
    expect(response.body.error.name).toBe('ValidationError');
    expect(refusedFields(response.body)).toEqual(['slug']);

    const token = await createApiToken(app.strapi, 'full-access');
    const posted = await app
      .api()
      .post('/api/artikel')
      .set('Authorization', `Bearer ${token}`)
      .send({ title: 'Third owner', category: 'Portraits', content: 'Body.', slug: String(first.slug) })
      .expect(409);
    expect(posted.body.error.name).toBe('ConflictError');
  });

  it('tells the slug field that a route word is not available and suggests another', async () => {
    const check = (value: string) =>
      editor.post('/content-manager/uid/check-availability', { contentTypeUID: 'api::article.article', field: 'slug', value }).expect(200);
    expect((await check('categories')).body).toEqual({ isAvailable: false, suggestion: 'categories-2' });
    expect((await check('a-free-slug')).body.isAvailable).toBe(true);
    const generated = await editor
      .post('/content-manager/uid/generate', { contentTypeUID: 'api::article.article', field: 'slug', data: { title: 'Latest' } })
      .expect(200);
    expect(generated.body.data).toBe('latest-2');
  });
});

describe('categories written in the admin', () => {
  it('get a slug from their name, unique, and show it in every public read', async () => {
    const created = (await editor.post(CATEGORIES_PATH, { name: 'Black & White' }).expect(201)).body.data;
    expect(created.slug).toBe('black-and-white');
    const second = (await editor.post(CATEGORIES_PATH, { name: 'Black and White!' }).expect(201)).body.data;
    expect(second.slug).toBe('black-and-white-2');

    const categories = (await app.api().get('/api/artikel/categories').expect(200)).body.data as Array<{ name: string; slug: string }>;
    expect(categories).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Black & White', slug: 'black-and-white' })]));
    expect(categories.every((category) => category.slug !== '')).toBe(true);

    await editor
      .post(`${ARTICLES_PATH}/actions/publish`, {
        title: uniqueTitle('Monochrome'),
        content: 'Grain.',
        category: connect(created.documentId),
      })
      .expect(200);
    const list = (await app.api().get('/api/artikel?kategori=black-and-white').expect(200)).body.data;
    expect(list[0].category).toEqual({ name: 'Black & White', slug: 'black-and-white' });
  });

  it('keep a slug the editor typed, normalized, and refuse one another category has', async () => {
    const created = (await editor.post(CATEGORIES_PATH, { name: 'Studio work', slug: 'In The Studio' }).expect(201)).body.data;
    expect(created.slug).toBe('in-the-studio');
    const taken = await editor.post(CATEGORIES_PATH, { name: 'Other studio work', slug: 'in-the-studio' }).expect(400);
    expect(refusedFields(taken.body)).toEqual(['slug']);
  });
});

describe('defaults that were generated follow their source', () => {
  it('regenerates the summary, meta title and meta description when the editor changes the title and content', async () => {
    const created = await createInAdmin(uniqueTitle('Golden hour'));
    const form = await editForm(created.documentId);

    const saved = (
      await editor
        .put(`${ARTICLES_PATH}/${created.documentId}`, {
          ...form,
          title: 'Blue hour',
          content: 'Blue light after sunset. It lasts minutes.',
        })
        .expect(200)
    ).body.data;
    expect(saved.summary).toBe('Blue light after sunset. It lasts minutes.');
    expect(saved.meta_title).toBe('Blue hour');
    expect(saved.meta_description).toBe('Blue light after sunset. It lasts minutes.');
    expect(saved.slug).toBe(created.slug);
  });

  it('keeps what the editor typed when the source changes', async () => {
    const created = await createInAdmin(uniqueTitle('Typed fields'), { summary: 'Written by hand.', meta_title: 'A hand-made title' });
    const form = await editForm(created.documentId);

    const saved = (
      await editor.put(`${ARTICLES_PATH}/${created.documentId}`, { ...form, title: 'Renamed', content: 'All new words here.' }).expect(200)
    ).body.data;
    expect(saved.summary).toBe('Written by hand.');
    expect(saved.meta_title).toBe('A hand-made title');
    expect(saved.meta_description).toBe('Written by hand.');
  });

  it('keeps a generated default once the editor overwrites it, and regenerates one the editor empties', async () => {
    const created = await createInAdmin(uniqueTitle('Overwritten'));
    const form = await editForm(created.documentId);
    await editor.put(`${ARTICLES_PATH}/${created.documentId}`, { ...form, summary: 'My own summary.' }).expect(200);

    const renamed = (
      await editor
        .put(`${ARTICLES_PATH}/${created.documentId}`, { ...(await editForm(created.documentId)), content: 'Different text now.' })
        .expect(200)
    ).body.data;
    expect(renamed.summary).toBe('My own summary.');

    const emptied = (
      await editor.put(`${ARTICLES_PATH}/${created.documentId}`, { ...(await editForm(created.documentId)), summary: '' }).expect(200)
    ).body.data;
    expect(emptied.summary).toBe('Different text now.');
    const edited = (
      await editor
        .put(`${ARTICLES_PATH}/${created.documentId}`, { ...(await editForm(created.documentId)), content: 'Followed again.' })
        .expect(200)
    ).body.data;
    expect(edited.summary).toBe('Followed again.');
  });

  it('serves the followed defaults publicly once the edit is published', async () => {
    const title = uniqueTitle('Published follower');
    const created = (await editor.post(`${ARTICLES_PATH}/actions/publish`, articleForm(title)).expect(200)).body.data;
    const form = await editForm(created.documentId);
    await editor
      .post(`${ARTICLES_PATH}/${created.documentId}/actions/publish`, { ...form, title: `${title} renamed`, content: 'Fresh words.' })
      .expect(200);

    const article = (await app.api().get(`/api/artikel/${created.slug}`).expect(200)).body.data;
    expect(article).toMatchObject({
      title: `${title} renamed`,
      summary: 'Fresh words.',
      meta_title: `${title} renamed`,
      meta_description: 'Fresh words.',
    });
  });
});
