import { ARTICLES_PATH, connect, registerEditor, uniqueTitle, type Editor } from '../helpers/admin';
import { isContractError } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

let app: TestApp;
let editor: Editor;
let moves = 0;

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: { name: 'Portraits', slug: 'portraits' } });
  editor = await registerEditor(app);
});

afterAll(async () => {
  await app.stop();
});

interface CmDocument {
  documentId: string;
  title: string;
  slug: string;
}

function refusedFields(body: { error: { details: { errors: Array<{ path: string[] }> } } }): string[] {
  return body.error.details.errors.map((error) => error.path.join('.'));
}

/** An article the editor writes and publishes in the Content Manager. */
async function publishedInAdmin(): Promise<CmDocument> {
  const title = uniqueTitle('Portrait by the window');
  const created = (
    await editor.post(ARTICLES_PATH, { title, content: `Window light for ${title}.`, category: connect(app.categoryId) }).expect(201)
  ).body.data as CmDocument;
  await editor.post(`${ARTICLES_PATH}/${created.documentId}/actions/publish`, {}).expect(200);
  return created;
}

/** The editor types a new slug into the form, saves and publishes, as the admin sends it. */
async function moveInAdmin(documentId: string, slug: string): Promise<void> {
  await editor.put(`${ARTICLES_PATH}/${documentId}`, { slug }).expect(200);
  await editor.post(`${ARTICLES_PATH}/${documentId}/actions/publish`, {}).expect(200);
}

function freshSlug(words: string): string {
  moves += 1;
  return `${words}-${moves}`;
}

describe('a slug changed by an editor in the admin', () => {
  it('answers the old slug with a 301 to the new one once published, counting no view', async () => {
    const article = await publishedInAdmin();
    await app.api().get(`/api/artikel/${article.slug}`).expect(200);
    const target = freshSlug('window-portrait');
    await moveInAdmin(article.documentId, target);

    const first = (await app.api().get(`/api/artikel/${target}`).expect(200)).body.data;
    expect(first.id).toBe(article.documentId);
    const redirect = await app.api().get(`/api/artikel/${article.slug}`).expect(301);
    expect(redirect.headers.location).toBe(`/api/artikel/${target}`);
    await app.api().head(`/api/artikel/${article.slug}`).expect(301);
    const next = (await app.api().get(`/api/artikel/${target}`).expect(200)).body.data;
    expect(next.views).toBe(first.views + 1);
  });

  it('keeps the site on the old slug while the new one is only saved, and moves it when the editor publishes', async () => {
    const article = await publishedInAdmin();
    const target = freshSlug('saved-not-published');
    await editor.put(`${ARTICLES_PATH}/${article.documentId}`, { slug: target }).expect(200);
    await app.api().get(`/api/artikel/${article.slug}`).expect(200);
    await app.api().get(`/api/artikel/${target}`).expect(404);

    await editor.post(`${ARTICLES_PATH}/${article.documentId}/actions/publish`, {}).expect(200);
    expect((await app.api().get(`/api/artikel/${article.slug}`).expect(301)).headers.location).toBe(`/api/artikel/${target}`);
  });

  it('gives an article posted over the API and moved in the admin the same 301, one hop after a second move over the API', async () => {
    const posted = await app
      .api()
      .post('/api/artikel')
      .set(app.auth())
      .send({ title: uniqueTitle('Posted then moved'), category: 'Portraits', content: 'Posted by a script.' })
      .expect(201);
    const original = posted.body.data.slug as string;
    const inAdmin = freshSlug('moved-by-editor');
    await moveInAdmin(posted.body.data.id as string, inAdmin);
    expect((await app.api().get(`/api/artikel/${original}`).expect(301)).headers.location).toBe(`/api/artikel/${inAdmin}`);

    const overApi = freshSlug('moved-by-script');
    await app.api().patch(`/api/artikel/${inAdmin}`).set(app.auth()).send({ slug: overApi }).expect(200);
    for (const old of [original, inAdmin]) {
      expect((await app.api().get(`/api/artikel/${old}`).expect(301)).headers.location).toBe(`/api/artikel/${overApi}`);
    }
  });

  it("keeps the old slug the article's: the admin refuses it for another article under the slug field, and calls it unavailable", async () => {
    const owner = await publishedInAdmin();
    await moveInAdmin(owner.documentId, freshSlug('owner-moved'));
    const other = await publishedInAdmin();

    const refused = await editor.put(`${ARTICLES_PATH}/${other.documentId}`, { slug: owner.slug }).expect(400);
    expect(isContractError(refused)).toBe(true);
    expect(refused.body.error.name).toBe('ValidationError');
    expect(refusedFields(refused.body)).toEqual(['slug']);
    const check = await editor
      .post('/content-manager/uid/check-availability', { contentTypeUID: 'api::article.article', field: 'slug', value: owner.slug })
      .expect(200);
    expect(check.body.isAvailable).toBe(false);
    await app.api().get(`/api/artikel/${other.slug}`).expect(200);
  });

  it('frees the old slugs once the article the editor deleted in the admin is purged from the trash', async () => {
    const article = await publishedInAdmin();
    await moveInAdmin(article.documentId, freshSlug('soon-gone'));
    await editor.del(`${ARTICLES_PATH}/${article.documentId}`).expect(200);
    await app.api().get(`/api/artikel/${article.slug}`).expect(404);
    await editor.del(`/artikel/trash/${article.documentId}`).expect(204);
    const successor = await app
      .api()
      .post('/api/artikel')
      .set(app.auth())
      .send({ title: 'Successor', category: 'Portraits', content: 'New.', slug: article.slug })
      .expect(201);
    expect(successor.body.data.slug).toBe(article.slug);
  });
});
