import { createArticle } from '../helpers/fixtures';
import { type Editor, registerEditor } from '../helpers/admin';
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

  it('is refused without an admin session', async () => {
    await app.api().get('/artikel/most-read').expect(401);
  });
});
