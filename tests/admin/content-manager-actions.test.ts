import { ARTICLES_PATH, connect, registerEditor, timed, uniqueTitle, type Editor } from '../helpers/admin';
import { startStrapi, type TestApp } from '../helpers/strapi';

let app: TestApp;
let editor: Editor;

beforeAll(async () => {
  app = await startStrapi({ category: { name: 'Weddings', slug: 'weddings' } });
  editor = await registerEditor(app);
});

afterAll(async () => {
  await app.stop();
});

interface CmDocument {
  documentId: string;
  title: string;
  slug: string;
  summary: string;
  meta_title: string;
  meta_description: string;
  author: string;
  publishedAt: string | null;
}

/** The form the editor fills: title, content, category and tags only. */
function articleForm(title: string) {
  return {
    title,
    content: `## Light\n\nMorning light for ${title}.\n\n- soft\n- warm`,
    category: connect(app.categoryId),
    tags: 'Light, Morning',
  };
}

async function createDraft(title = uniqueTitle('Draft in the admin')): Promise<CmDocument> {
  const response = await editor.post(ARTICLES_PATH, articleForm(title)).expect(201);
  return (response.body as { data: CmDocument }).data;
}

async function publish(documentId: string): Promise<CmDocument> {
  const response = await editor.post(`${ARTICLES_PATH}/${documentId}/actions/publish`, {}).expect(200);
  return (response.body as { data: CmDocument }).data;
}

async function publicSlugs(): Promise<string[]> {
  const list = await app.api().get('/api/artikel?limit=50').expect(200);
  return (list.body.data as Array<{ slug: string }>).map((article) => article.slug);
}

async function readViews(slug: string): Promise<number> {
  return (await app.api().get(`/api/artikel/${slug}`).expect(200)).body.data.views as number;
}

describe('the Content Manager, through the requests the admin sends', () => {
  it('saves a new article as a draft with its defaults filled in, invisible to the public', async () => {
    const title = uniqueTitle('Saved not published');
    const draft = await timed('create (save)', () => createDraft(title));

    expect(draft.slug).toBe(title.toLowerCase().replace(/ /g, '-'));
    expect(draft.summary).toBe('Light. Morning light for ' + title + '. soft. warm.');
    expect(draft.meta_title).toBe(title);
    expect(draft.meta_description).toBe(draft.summary);
    expect(draft.author).toBe('Lichtbild Studio');
    expect(draft.publishedAt).toBeNull();
    await app.api().get(`/api/artikel/${draft.slug}`).expect(404);
    expect(await publicSlugs()).not.toContain(draft.slug);
  });

  it('publishes a saved draft so that every public read shows it at once', async () => {
    const draft = await createDraft();
    await publicSlugs();
    await timed('publish', () => publish(draft.documentId));

    expect(await publicSlugs()).toContain(draft.slug);
    const article = (await app.api().get(`/api/artikel/${draft.slug}`).expect(200)).body.data;
    expect(article).toMatchObject({ title: draft.title, status: 'published', category: { slug: 'weddings' }, tags: ['Light', 'Morning'] });
    const latest = (await app.api().get('/api/artikel/latest').expect(200)).body.data as Array<{ slug: string }>;
    expect(latest[0].slug).toBe(draft.slug);
  });

  it('creates and publishes in one request when the editor publishes an unsaved article', async () => {
    const title = uniqueTitle('Published straight away');
    const response = await timed('create and publish', () =>
      editor.post(`${ARTICLES_PATH}/actions/publish`, articleForm(title)).expect(200),
    );
    const slug = (response.body.data as CmDocument).slug;

    expect((await app.api().get(`/api/artikel/${slug}`).expect(200)).body.data.title).toBe(title);
  });

  it('saves an edit of a published article as a draft change until it is published again, keeping its views', async () => {
    const draft = await createDraft();
    await publish(draft.documentId);
    await readViews(draft.slug);
    const viewsBefore = await readViews(draft.slug);

    await timed('save (update)', () => editor.put(`${ARTICLES_PATH}/${draft.documentId}`, { title: `${draft.title} revised` }).expect(200));
    expect((await app.api().get(`/api/artikel/${draft.slug}`).expect(200)).body.data.title).toBe(draft.title);

    await publish(draft.documentId);
    const article = (await app.api().get(`/api/artikel/${draft.slug}`).expect(200)).body.data;
    expect(article.title).toBe(`${draft.title} revised`);
    expect(article.views).toBe(viewsBefore + 2);
  });

  it('unpublishes an article out of every public read, and publishing it again brings back its views', async () => {
    const draft = await createDraft();
    await publish(draft.documentId);
    const viewsBefore = await readViews(draft.slug);

    await timed('unpublish', () => editor.post(`${ARTICLES_PATH}/${draft.documentId}/actions/unpublish`, {}).expect(200));
    await app.api().get(`/api/artikel/${draft.slug}`).expect(404);
    expect(await publicSlugs()).not.toContain(draft.slug);
    const words = draft.title.split(' ');
    const searched = (
      await app
        .api()
        .get(`/api/artikel?q=${encodeURIComponent(words[words.length - 1])}`)
        .expect(200)
    ).body.data;
    expect(searched.map((article: { slug: string }) => article.slug)).not.toContain(draft.slug);

    await publish(draft.documentId);
    expect(await readViews(draft.slug)).toBe(viewsBefore + 1);
  });

  it('discards a draft change, so the published version stays what the public reads', async () => {
    const draft = await createDraft();
    await publish(draft.documentId);
    await editor.put(`${ARTICLES_PATH}/${draft.documentId}`, { title: `${draft.title} never published` }).expect(200);

    const discarded = await timed('discard draft', () =>
      editor.post(`${ARTICLES_PATH}/${draft.documentId}/actions/discard`, {}).expect(200),
    );
    expect((discarded.body.data as CmDocument).title).toBe(draft.title);
    expect((await app.api().get(`/api/artikel/${draft.slug}`).expect(200)).body.data.title).toBe(draft.title);
    const stored = await editor.get(`${ARTICLES_PATH}/${draft.documentId}`).expect(200);
    expect((stored.body.data as CmDocument).title).toBe(draft.title);
  });

  it('deletes an article out of every public read', async () => {
    const draft = await createDraft();
    await publish(draft.documentId);
    await readViews(draft.slug);

    await timed('delete', () => editor.del(`${ARTICLES_PATH}/${draft.documentId}`).expect(200));
    await app.api().get(`/api/artikel/${draft.slug}`).expect(404);
    expect(await publicSlugs()).not.toContain(draft.slug);
    await editor.get(`${ARTICLES_PATH}/${draft.documentId}`).expect(404);
  });

  it("publishes, unpublishes and deletes several articles at once from the list view's bulk actions", async () => {
    const drafts = await Promise.all([createDraft(), createDraft(), createDraft()]);
    const documentIds = drafts.map((draft) => draft.documentId);
    const slugs = drafts.map((draft) => draft.slug);

    await timed('bulk publish (3)', () => editor.post(`${ARTICLES_PATH}/actions/bulkPublish`, { documentIds }).expect(200));
    expect(await publicSlugs()).toEqual(expect.arrayContaining(slugs));
    await Promise.all(slugs.map((slug) => readViews(slug)));

    await timed('bulk unpublish (3)', () => editor.post(`${ARTICLES_PATH}/actions/bulkUnpublish`, { documentIds }).expect(200));
    expect(await publicSlugs()).toEqual(expect.not.arrayContaining([slugs[0]]));
    for (const slug of slugs) await app.api().get(`/api/artikel/${slug}`).expect(404);

    await editor.post(`${ARTICLES_PATH}/actions/bulkPublish`, { documentIds: documentIds.slice(0, 2) }).expect(200);
    for (const slug of slugs.slice(0, 2)) expect(await readViews(slug)).toBe(2);

    await timed('bulk delete (3)', () => editor.post(`${ARTICLES_PATH}/actions/bulkDelete`, { documentIds }).expect(200));
    const remaining = await publicSlugs();
    for (const slug of slugs) expect(remaining).not.toContain(slug);
    for (const slug of slugs) await app.api().get(`/api/artikel/${slug}`).expect(404);
  });

  it('keeps answering public reads while the Content Manager publishes', async () => {
    const drafts = await Promise.all([createDraft(), createDraft(), createDraft(), createDraft()]);
    const publishing = editor.post(`${ARTICLES_PATH}/actions/bulkPublish`, { documentIds: drafts.map((draft) => draft.documentId) });
    const reads = Array.from({ length: 10 }, (_, index) => app.api().get(index % 2 === 0 ? '/api/artikel' : '/api/artikel/categories'));

    const [published, ...answers] = await Promise.all([publishing, ...reads]);
    expect(published.status).toBe(200);
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(await publicSlugs()).toEqual(expect.arrayContaining(drafts.map((draft) => draft.slug)));
  });
});
