import { createArticle } from '../helpers/fixtures';
import { type Editor, registerEditor } from '../helpers/admin';
import { adminAs } from '../helpers/factories';
import { startStrapi, type TestApp } from '../helpers/strapi';

// Issue 33: the admin home page's "most read" widget reads GET /artikel/most-read (an admin route of
// the plugin): the published articles the public list sorted by views shows first, each with the
// document id its row links to (the edit view).

let app: TestApp;
let editor: Editor;
const ids: Record<string, string> = {};

beforeAll(async () => {
  app = await startStrapi();
  editor = await registerEditor(app);
  for (const slug of ['older', 'newer', 'read-most']) ids[slug] = await createArticle(app.strapi, { title: `Article ${slug}`, slug });
  await createArticle(app.strapi, { title: 'A draft', slug: 'a-draft', status: 'draft' });
}, 180_000);

afterAll(async () => {
  await app.stop();
});

describe('GET /artikel/most-read', () => {
  it('lists the most read published articles first, ties newest first, with their document ids', async () => {
    for (let read = 0; read < 2; read += 1) await app.api().get('/api/artikel/read-most').expect(200);
    await app.api().get('/api/artikel/older').expect(200);
    const response = await editor.get('/artikel/most-read').expect(200);
    expect(response.body.data).toEqual([
      { document_id: ids['read-most'], title: 'Article read-most', slug: 'read-most', views: 2 },
      { document_id: ids.older, title: 'Article older', slug: 'older', views: 1 },
      { document_id: ids.newer, title: 'Article newer', slug: 'newer', views: 0 },
    ]);
    // The public list sorted by views agrees.
    const listed = await app.api().get('/api/artikel?sort=views').expect(200);
    expect(listed.body.data.map((article: { slug: string }) => article.slug)).toEqual(['read-most', 'older', 'newer']);
  });

  it('shows an Author only the most read articles they may open, an Editor every one', async () => {
    const author = await adminAs(app, editor, 'author');
    const other = await adminAs(app, editor, 'editor');
    // An article of the Author's own, written in the admin (so they are its creator), read once.
    const category = (await author.get('/content-manager/collection-types/api::category.category').expect(200)).body.results as Array<{
      documentId: string;
    }>;
    const draft = (
      await author
        .post('/content-manager/collection-types/api::article.article', {
          title: 'The author’s own',
          content: 'Morning light.',
          ...(category.length > 0 ? { category: { connect: [{ documentId: category[0].documentId }] } } : {}),
        })
        .expect(201)
    ).body.data as { documentId: string; slug: string };
    await editor.post(`/content-manager/collection-types/api::article.article/${draft.documentId}/actions/publish`, {}).expect(200);
    await app.api().get(`/api/artikel/${draft.slug}`).expect(200);

    const authorsWidget = (await author.get('/artikel/most-read').expect(200)).body.data as Array<{ document_id: string }>;
    expect(authorsWidget.map((article) => article.document_id)).toEqual([draft.documentId]);
    const editorsWidget = (await other.get('/artikel/most-read').expect(200)).body.data as Array<{ document_id: string }>;
    expect(editorsWidget.map((article) => article.document_id)).toEqual(
      expect.arrayContaining([draft.documentId, ids['read-most'], ids.older]),
    );
  });

  it('is refused without an admin session', async () => {
    await app.api().get('/artikel/most-read').expect(401);
  });
});
