import { ARTICLES_PATH, connect, registerEditor, uniqueTitle, type Editor } from '../helpers/admin';
import { adminAs, type RoleUser } from '../helpers/factories';
import { startStrapi, type TestApp } from '../helpers/strapi';

/**
 * A studio without a site of its own (no SITE_ARTICLE_URL, as in the demo): the admin's Preview
 * opens the service's own page of the article, through a signed link, for whoever may read it.
 */
let app: TestApp;
let base: string;
let superAdmin: Editor;
let author: RoleUser;
let otherAuthor: RoleUser;

beforeAll(async () => {
  app = await startStrapi({ env: { SITE_ARTICLE_URL: '', SITE_PREVIEW_URL: '' }, category: { name: 'Events', slug: 'events' } });
  base = await app.baseUrl();
  superAdmin = await registerEditor(app);
  author = await adminAs(app, superAdmin, 'author');
  otherAuthor = await adminAs(app, superAdmin, 'author');
}, 120_000);

afterAll(async () => {
  await app.stop();
});

const previewOf = (editor: Editor, documentId: string, status: 'draft' | 'published') =>
  editor.get(`/content-manager/preview/url/api::article.article?documentId=${documentId}&status=${status}`);

const draftBy = async (editor: Editor, title: string, content = 'Lanterns in the barn.'): Promise<string> =>
  (await editor.post(ARTICLES_PATH, { title, content, category: connect(app.categoryId) }).expect(201)).body.data.documentId;

/** The page a preview link opens, read with fetch() as the admin's preview frame does. */
async function pageAt(url: string): Promise<{ status: number; headers: Headers; html: string }> {
  const answer = await fetch(new URL(url, base));
  return { status: answer.status, headers: answer.headers, html: await answer.text() };
}

describe('the preview of a studio without a site', () => {
  it("opens the draft on the service's own page, every text escaped, no script, out of caches and search engines", async () => {
    const title = uniqueTitle('Lanterns <b>&</b> "barns"');
    const documentId = await draftBy(author, title, 'Paper lanterns.\n\n<script>alert(1)</script>\n\n**Warm** light.');
    const url = (await previewOf(author, documentId, 'draft').expect(200)).body.data.url as string;
    expect(url).toMatch(/^\/api\/artikel\/preview\/[A-Za-z0-9_.-]+\/page$/);

    const page = await pageAt(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-robots-tag')).toBe('noindex');
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(page.html).toContain(`<h1>${title.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</h1>`);
    expect(page.html).toContain('<strong>Warm</strong>');
    expect(page.html).not.toMatch(/<script/i);
    expect(page.html).toContain('Draf: belum tampil di situs');
  });

  it('shows either version of a published article: the live one, and the draft with the changes saved since', async () => {
    const title = uniqueTitle('Harbour lights');
    const published = (
      await superAdmin.post(`${ARTICLES_PATH}/actions/publish`, { title, content: 'Boats.', category: connect(app.categoryId) }).expect(200)
    ).body.data as { documentId: string };
    await superAdmin.put(`${ARTICLES_PATH}/${published.documentId}`, { title: `${title}, revised` }).expect(200);

    const live = (await previewOf(superAdmin, published.documentId, 'published').expect(200)).body.data.url as string;
    expect(live).toMatch(/\/page\?version=published$/);
    const livePage = await pageAt(live);
    expect(livePage.html).toContain(`<h1>${title}</h1>`);
    expect(livePage.html).toContain('Terbit: seperti yang dibaca pengunjung');

    const draftPage = await pageAt((await previewOf(superAdmin, published.documentId, 'draft').expect(200)).body.data.url as string);
    expect(draftPage.html).toContain(`<h1>${title}, revised</h1>`);
  });

  it("gives an Author no link to another author's draft", async () => {
    const others = await draftBy(otherAuthor, uniqueTitle('Not yours'));
    await previewOf(author, others, 'draft').expect(204);
  });

  it('answers a forged link with a 404 and a wrong version with a 400 naming it, in the error shape', async () => {
    const forged = await pageAt('/api/artikel/preview/c2VjcmV0.MTIz.c2lnbmF0dXJl/page');
    expect(forged.status).toBe(404);
    expect(JSON.parse(forged.html).error.message).toMatch(/invalid or has expired/);
    const documentId = await draftBy(author, uniqueTitle('Versions'));
    const url = (await previewOf(author, documentId, 'draft').expect(200)).body.data.url as string;
    const wrong = await pageAt(`${url}?version=latest`);
    expect(wrong.status).toBe(400);
    expect(JSON.parse(wrong.html).error.message).toMatch(/version must be draft or published/);
  });
});
