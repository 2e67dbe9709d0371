import { createArticle, createCategory, ARTICLE_UID } from '../helpers/fixtures';
import { reportFigure } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

const SUMMARY_KEYS = [
  'author',
  'category',
  'cover',
  'cover_image_url',
  'id',
  'published_at',
  'reading_time',
  'slug',
  'summary',
  'tags',
  'title',
  'updated_at',
  'views',
];
const FULL_KEYS = [
  ...SUMMARY_KEYS,
  'content',
  'content_html',
  'created_at',
  'gallery',
  'meta_description',
  'meta_keywords',
  'meta_title',
  'publish_at',
  'related',
  'status',
  'json_ld',
];
const CATEGORY_KEYS = ['article_count', 'name', 'slug'];

const PARAMETER_SETS = [
  '',
  'status=draft',
  'populate=*',
  'populate[createdBy]=*',
  'populate[0]=createdBy&populate[1]=updatedBy',
  'filters[title][$eq]=Confidential%20plans',
  'filters[createdBy][email][$contains]=owner',
  'publicationState=preview',
  'fields[0]=password',
  'locale=all',
  'hasPublishedVersion=false',
  'q=draftonly',
  'q=unreleased',
  'kategori=secret-plans',
  'tag=hidden',
  'unknown=1',
  'pLevel=5',
];
const PUBLIC_PATHS = [
  '/api/artikel',
  '/api/artikel/latest',
  '/api/artikel/categories',
  '/api/artikel/public-article',
  '/api/artikel/confidential-plans',
];
const OTHER_PATHS = [
  '/api/articles',
  '/api/articles?status=draft',
  '/api/categories',
  '/api/users',
  '/api/users?populate=*',
  '/api/users/1',
  '/api/users/me',
  '/api/users-permissions/roles',
  '/api/upload/files',
  '/admin/users',
  '/admin/users/me',
  '/admin/api-tokens',
  '/artikel/views/x',
  '/artikel/revisions/x',
  '/artikel/revisions/x/1',
  '/artikel/trash',
  '/api/artikel/confidential-plans/revisions',
  '/api/artikel/confidential-plans/revisions/1',
];

let app: TestApp;
const secrets: string[] = [
  'DRAFTONLYMARKER',
  'UNRELEASEDMARKER',
  'owner@studio.test',
  'reader@studio.test',
  'RESETTOKEN0123456789',
  'createdBy',
  'updatedBy',
  'created_by',
  'updated_by',
  'resetPasswordToken',
  '"password"',
  '$2a$',
  '$2b$',
];

beforeAll(async () => {
  app = await startStrapi();
  const strapi = app.strapi;
  const superAdmin = await (strapi.service('admin::role') as unknown as { getSuperAdmin: () => Promise<{ id: number }> }).getSuperAdmin();
  const owner = (await (strapi.service('admin::user') as unknown as { create: (data: object) => Promise<{ id: number }> }).create({
    email: 'owner@studio.test',
    firstname: 'Olga',
    lastname: 'Owner',
    password: 'Owner-pass-1',
    isActive: true,
    roles: [superAdmin.id],
  })) as { id: number };
  const readers = strapi.plugin('users-permissions').service('user') as unknown as { add: (data: object) => Promise<{ id: number }> };
  await readers.add({
    username: 'reader',
    email: 'reader@studio.test',
    password: 'Reader-pass-1',
    provider: 'local',
    confirmed: true,
    resetPasswordToken: 'RESETTOKEN0123456789',
  });
  const stored = (await strapi.db.connection('up_users').select('password').first()) as { password: string };
  const ownerRow = (await strapi.db.connection('admin_users').select('password').where({ id: owner.id }).first()) as { password: string };
  secrets.push(stored.password, ownerRow.password);

  const category = await createCategory(strapi, 'Public', 'public');
  const secretCategory = await createCategory(strapi, 'Secret plans', 'secret-plans');
  await createArticle(strapi, {
    title: 'Confidential plans',
    slug: 'confidential-plans',
    category: secretCategory,
    tags: 'Hidden',
    content: 'DRAFTONLYMARKER body',
    status: 'draft',
  });
  const published = await createArticle(strapi, {
    title: 'Public article',
    slug: 'public-article',
    category,
    tags: 'Open',
    content: 'Readable body.',
  });
  await strapi.documents(ARTICLE_UID).update({ documentId: published, data: { content: 'UNRELEASEDMARKER edit', tags: 'Open, Hidden' } });
  // As if an editor had written them in the admin: the rows name the admin user.
  await strapi.db.connection('articles').update({ created_by_id: owner.id, updated_by_id: owner.id });
});

afterAll(async () => {
  await app.stop();
});

function expectContractKeys(path: string, body: { data: unknown; meta?: unknown }): void {
  const keysOf = (value: object) => Object.keys(value).sort();
  const expectSummary = (article: Record<string, unknown>) => {
    expect(keysOf(article)).toEqual([...SUMMARY_KEYS].sort());
    expect(keysOf(article.category as object)).toEqual(['name', 'slug']);
  };
  if (path === '/api/artikel/categories') {
    (body.data as object[]).forEach((category) => expect(keysOf(category)).toEqual(CATEGORY_KEYS));
  } else if (path === '/api/artikel' || path === '/api/artikel/latest') {
    (body.data as Array<Record<string, unknown>>).forEach(expectSummary);
  } else {
    const article = body.data as Record<string, unknown>;
    expect(keysOf(article)).toEqual([...FULL_KEYS].sort());
    (article.related as Array<Record<string, unknown>>).forEach(expectSummary);
  }
}

describe('what public responses never carry', () => {
  it('leaks no draft, password hash, reset token, e-mail, createdBy/updatedBy or extra field, whatever the query', async () => {
    let checked = 0;
    const statuses = new Map<number, number>();
    const urls = [
      ...PUBLIC_PATHS.flatMap((path) =>
        PARAMETER_SETS.map((parameters) => ({ path, url: parameters === '' ? path : `${path}?${parameters}` })),
      ),
      ...OTHER_PATHS.map((url) => ({ path: url, url })),
    ];
    for (const { path, url } of urls) {
      const response = await app.api().get(url);
      checked += 1;
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      expect(response.status).toBeLessThan(500);
      for (const secret of secrets) {
        if (response.text.includes(secret)) throw new Error(`${url} answered ${response.status} carrying ${secret}`);
      }
      if (response.status === 200 && PUBLIC_PATHS.includes(path)) expectContractKeys(path, response.body);
    }
    // The published version is served, not the newer draft of it.
    const published = await app.api().get('/api/artikel/public-article').expect(200);
    expect(published.body.data.content).toBe('Readable body.');
    expect(published.body.data.tags).toEqual(['Open']);
    await app.api().get('/api/artikel/confidential-plans').expect(404);
    const summary = [...statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, times]) => `${status}×${times}`)
      .join(', ');
    reportFigure('leak checks', `${checked} public requests (${summary}), 0 carried a draft, hash, token, e-mail or author field`);
  });
});
