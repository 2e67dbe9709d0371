import { ARTICLES_PATH, connect, registerEditor, uniqueTitle, type Editor } from '../helpers/admin';
import { isContractError } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

const SITE_ARTICLE_URL = 'https://studio.example/artikel/{slug}';
let app: TestApp;
let editor: Editor;

beforeAll(async () => {
  // Every test file runs in this one process: the site is set for this app only.
  app = await startStrapi({ env: { SITE_ARTICLE_URL }, category: { name: 'Events', slug: 'events' } });
  editor = await registerEditor(app);
});

afterAll(async () => {
  await app.stop();
});

interface EditMetadata {
  edit: { label: string; description: string; placeholder: string };
}

async function articleFormConfiguration() {
  const response = await editor.get('/content-manager/content-types/api::article.article/configuration').expect(200);
  return response.body.data.contentType as { metadatas: Record<string, EditMetadata>; layouts: { edit: Array<Array<{ name: string }>> } };
}

async function createArticle(status: 'draft' | 'published'): Promise<{ documentId: string; slug: string }> {
  const form = { title: uniqueTitle('Preview me'), content: 'Lanterns in the barn.', category: connect(app.categoryId) };
  const response =
    status === 'draft'
      ? await editor.post(ARTICLES_PATH, form).expect(201)
      : await editor.post(`${ARTICLES_PATH}/actions/publish`, form).expect(200);
  return response.body.data;
}

async function previewUrl(documentId: string, status: 'draft' | 'published'): Promise<string> {
  const response = await editor
    .get(`/content-manager/preview/url/api::article.article?documentId=${documentId}&status=${status}`)
    .expect(200);
  return response.body.data.url as string;
}

describe('the admin panel explains itself', () => {
  it('serves a favicon instead of an error on every page load', async () => {
    const response = await app.api().get('/favicon.ico').expect(200);
    expect(response.headers['content-type']).toMatch(/^image\//);
    expect(Number(response.headers['content-length'])).toBeGreaterThan(0);
  });

  it('labels every article field in words and says which fields fill themselves', async () => {
    const { metadatas } = await articleFormConfiguration();
    const labels = Object.fromEntries(Object.entries(metadatas).map(([field, metadata]) => [field, metadata.edit.label]));
    expect(labels).toMatchObject({
      cover_image_url: 'Cover URL (only for a photo hosted elsewhere)',
      meta_title: 'SEO title',
      slug: 'URL slug',
    });
    for (const field of [
      'title',
      'slug',
      'summary',
      'content',
      'tags',
      'cover',
      'cover_image_url',
      'gallery',
      'author',
      'meta_title',
      'meta_description',
      'meta_keywords',
    ]) {
      expect(labels[field]).not.toBe(field);
    }
    for (const field of ['slug', 'summary', 'author', 'meta_title', 'meta_description']) {
      expect(metadatas[field].edit.description).toMatch(/Left empty/);
    }
    expect(metadatas.generated_fields).toBeUndefined();
  });

  it('lists when each article goes live right after its title, where the first screen shows it', async () => {
    const { layouts } = (await articleFormConfiguration()) as unknown as { layouts: { list: string[] } };
    expect(layouts.list.indexOf('publish_at')).toBe(layouts.list.indexOf('title') + 1);
  });

  it('places the free-text cover URL after the cover picker', async () => {
    const { layouts } = await articleFormConfiguration();
    const order = layouts.edit.flat().map((field) => field.name);
    expect(order.indexOf('cover_image_url')).toBe(order.indexOf('cover') + 1);
  });

  it('keeps a label an administrator changed in "Configure the view"', async () => {
    const configuration = await articleFormConfiguration();
    const { metadatas, layouts } = configuration;
    // As the view's settings page sends it back: the list's relation display field is not part of it.
    const sent = Object.fromEntries(
      Object.entries(metadatas).map(([field, metadata]) => {
        const { mainField: _mainField, ...list } = (metadata as unknown as { list: { mainField?: unknown } }).list;
        return [field, { ...metadata, list, ...(field === 'meta_title' ? { edit: { ...metadata.edit, label: 'Google title' } } : {}) }];
      }),
    );
    const settings = (configuration as unknown as { settings: object }).settings;
    await editor
      .put('/content-manager/content-types/api::article.article/configuration', { layouts, metadatas: sent, settings })
      .expect(200);

    const { explainEditViews } = await import('../../src/plugins/artikel/server/src/content-manager/edit-view');
    await explainEditViews(app.strapi);
    expect((await articleFormConfiguration()).metadatas.meta_title.edit.label).toBe('Google title');
  });
});

describe("the admin's preview", () => {
  it('opens a published article on the public site', async () => {
    const article = await createArticle('published');
    expect(await previewUrl(article.documentId, 'published')).toBe(`https://studio.example/artikel/${article.slug}`);
  });

  it('opens a draft through a signed link that the public site exchanges for the draft, counting no view', async () => {
    const draft = await createArticle('draft');
    const url = new URL(await previewUrl(draft.documentId, 'draft'));
    expect(`${url.origin}${url.pathname}`).toBe(`https://studio.example/artikel/${draft.slug}`);
    const token = url.searchParams.get('preview') ?? '';

    const response = await app
      .api()
      .get(`/api/artikel/preview/${encodeURIComponent(token)}`)
      .expect(200);
    expect(response.body.data).toMatchObject({
      slug: draft.slug,
      status: 'draft',
      content: 'Lanterns in the barn.',
      views: 0,
      published_at: null,
    });
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-robots-tag']).toBe('noindex');
    await app.api().get(`/api/artikel/${draft.slug}`).expect(404);
    const list = (await app.api().get('/api/artikel?limit=50').expect(200)).body.data as Array<{ slug: string }>;
    expect(list.map((article) => article.slug)).not.toContain(draft.slug);
  });

  it('refuses a forged or altered preview token with a 404', async () => {
    const draft = await createArticle('draft');
    const token = new URL(await previewUrl(draft.documentId, 'draft')).searchParams.get('preview') ?? '';
    const [documentPart, expiryPart, signaturePart] = token.split('.');
    const longer = Buffer.from(String(Number(Buffer.from(expiryPart, 'base64url').toString()) + 86_400)).toString('base64url');
    for (const forged of [`${documentPart}.${longer}.${signaturePart}`, 'not-a-token', `${token}x`, `${documentPart}.${expiryPart}.`]) {
      const response = await app
        .api()
        .get(`/api/artikel/preview/${encodeURIComponent(forged)}`)
        .expect(404);
      expect(isContractError(response)).toBe(true);
    }
  });
});
