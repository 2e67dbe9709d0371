import { ARTICLES_PATH, type Editor, registerEditor } from '../helpers/admin';
import { isContractError } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';
import { createApiToken } from '../helpers/tokens';
import { eventually } from '../helpers/eventually';

let app: TestApp;
let editor: Editor;
let updater: string;
let counter = 0;

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: true, env: { ARTIKEL_RATE_LIMIT: '0' } });
  editor = await registerEditor(app);
  updater = await createApiToken(app.strapi, 'custom', ['plugin::artikel.artikel.update']);
});

afterAll(async () => {
  await app.stop();
});

interface Actor {
  kind: string;
  id: string | null;
  name: string | null;
}
interface RevisionEntry {
  number: number;
  action: string;
  created_at: string;
  actor: Actor;
  restored_from: number | null;
  changed: string[];
}
interface RevisionDetail extends RevisionEntry {
  article: Record<string, unknown> & { title: string; summary: string; content: string; tags: string[]; status: string };
  text_changes: Array<{ field: string; parts: Array<{ kind: string; text: string }> }>;
}
interface Article {
  id: string;
  slug: string;
  title: string;
  summary: string;
  content: string;
  tags: string[];
  author: string;
  status: string;
  category: { name: string; slug: string };
  cover_image_url: string | null;
  meta_title: string;
  meta_description: string;
  meta_keywords: string | null;
  published_at: string | null;
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function create(fields: Record<string, string> = {}): Promise<Article> {
  counter += 1;
  const body = {
    title: `Rain on the harbour ${counter}`,
    category: 'Studio',
    content: `Wet stones and ropes, morning ${counter}.`,
    ...fields,
  };
  return (await app.api().post('/api/artikel').set(app.auth()).send(body).expect(201)).body.data as Article;
}

const patch = (slug: string, body: object, token = app.token) => app.api().patch(`/api/artikel/${slug}`).set(bearer(token)).send(body);

async function revisionsOf(slug: string): Promise<RevisionEntry[]> {
  return (await app.api().get(`/api/artikel/${slug}/revisions`).set(app.auth()).expect(200)).body.data as RevisionEntry[];
}

async function revision(slug: string, number: number): Promise<RevisionDetail & { compared_with: number | null }> {
  return (await app.api().get(`/api/artikel/${slug}/revisions/${number}`).set(app.auth()).expect(200)).body.data as RevisionDetail & {
    compared_with: number | null;
  };
}

const restore = (slug: string, number: number, headers: Record<string, string> = {}) =>
  app
    .api()
    .post(`/api/artikel/${slug}/revisions/${number}/restore`)
    .set({ ...app.auth(), ...headers });

/** The stored revisions of an article, counted in the table itself. */
async function storedRevisions(documentId: string): Promise<number> {
  const [row] = (await app.strapi.db
    .connection('artikel_revisions')
    .where('article_document_id', documentId)
    .count({ total: '*' })) as Array<{
    total: number | string;
  }>;
  return Number(row.total);
}

describe('every write keeps a revision naming who made it', () => {
  it('a POST by one token, a PATCH by another and a save in the admin give three revisions, newest first, each with its actor and what it changed', async () => {
    const article = await create({ tags: 'Harbour, Rain' });
    await patch(article.slug, { summary: 'A short summary by the second token.' }, updater).expect(200);
    await editor.put(`${ARTICLES_PATH}/${article.id}`, { title: `${article.title} (edited)` }).expect(200);

    const entries = await revisionsOf(article.slug);
    expect(entries.map((entry) => entry.number)).toEqual([3, 2, 1]);
    expect(entries.map((entry) => entry.action)).toEqual(['update', 'update', 'create']);
    expect(entries[0].actor).toEqual({ kind: 'editor', id: expect.any(String), name: 'Eda Editor' });
    expect(entries[1].actor).toEqual({ kind: 'api-token', id: expect.any(String), name: expect.stringMatching(/^test-custom-/) });
    expect(entries[2].actor).toEqual({ kind: 'api-token', id: expect.any(String), name: expect.stringMatching(/^test-full-access-/) });
    expect(entries[1].actor.id).not.toBe(entries[2].actor.id);
    // The editor changed the title, and the generated meta title follows it.
    expect(entries[0].changed).toEqual(['title', 'meta_title']);
    expect(entries[1].changed).toEqual(['summary', 'meta_description']);
    expect(entries[2].changed).toEqual(expect.arrayContaining(['title', 'content', 'tags', 'category', 'status']));
    for (const entry of entries) expect(Number.isNaN(Date.parse(entry.created_at))).toBe(false);
    expect(await storedRevisions(article.id)).toBe(3);
  });

  it('one PATCH that unpublishes and edits keeps one revision with both changes, named for the unpublish', async () => {
    const article = await create();
    await patch(article.slug, { status: 'draft', title: `${article.title} withdrawn` }).expect(200);
    const [latest, first] = await revisionsOf(article.slug);
    expect(first.number).toBe(1);
    expect(latest).toMatchObject({ number: 2, action: 'unpublish' });
    expect(latest.changed).toEqual(['title', 'meta_title', 'status']);
    await patch(article.slug, { status: 'published' }).expect(200);
    const [republished] = await revisionsOf(article.slug);
    expect(republished).toMatchObject({ number: 3, action: 'publish', changed: ['status'] });
  });

  it('a scheduled article going live keeps a revision by the scheduler', async () => {
    const publishAt = new Date(Date.now() + 2_000).toISOString();
    const article = await create({ status: 'scheduled', publish_at: publishAt });
    const live = await eventually(
      async () => (await app.api().get(`/api/artikel/${article.slug}`)).status,
      (status) => status === 200,
      { withinMs: 30_000, everyMs: 200 },
    );
    expect(live).toBe(200);
    const [latest] = await revisionsOf(article.slug);
    expect(latest).toMatchObject({
      action: 'publish',
      actor: { kind: 'schedule', id: null, name: null },
      changed: ['status', 'publish_at'],
    });
  });

  it('shows one revision whole, with what it changed in the content word by word', async () => {
    const article = await create({ content: 'The boats wait for the tide in the grey harbour.' });
    await patch(article.slug, { content: 'The boats wait for the evening tide in the harbour.' }).expect(200);
    const detail = await revision(article.slug, 2);
    expect(detail.article.content).toBe('The boats wait for the evening tide in the harbour.');
    expect(detail.article.status).toBe('published');
    const content = detail.text_changes.find((change) => change.field === 'content');
    expect(content?.parts.filter((part) => part.kind === 'added').map((part) => part.text.trim())).toEqual(['evening']);
    expect(content?.parts.filter((part) => part.kind === 'removed').map((part) => part.text.trim())).toEqual(['grey']);
    const first = await revision(article.slug, 1);
    expect(first.article.content).toBe('The boats wait for the tide in the grey harbour.');
  });

  it('compares any two revisions with ?against=, read with fetch() as an automation tool would', async () => {
    const article = await create({ content: 'Nets drying on the quay at dawn.' });
    await patch(article.slug, { content: 'Nets drying on the quay at noon.' }).expect(200);
    await patch(article.slug, { content: 'Red nets drying on the quay at noon.' }).expect(200);
    const answer = await fetch(`${await app.baseUrl()}/api/artikel/${article.slug}/revisions/3?against=1`, { headers: app.auth() });
    expect(answer.status).toBe(200);
    const { data } = (await answer.json()) as { data: RevisionDetail & { compared_with: number | null } };
    expect(data).toMatchObject({ number: 3, compared_with: 1 });
    const content = data.text_changes.find((change) => change.field === 'content');
    const added = content?.parts.filter((part) => part.kind === 'added').map((part) => part.text);
    const removed = content?.parts.filter((part) => part.kind === 'removed').map((part) => part.text);
    // Both edits at once: revision 2 in between is skipped over.
    expect(added?.join(' ')).toMatch(/Red.*noon/);
    expect(removed?.join(' ')).toMatch(/dawn/);
    expect((await revision(article.slug, 2)).compared_with).toBe(1);
    const missing = await app.api().get(`/api/artikel/${article.slug}/revisions/3?against=7`).set(app.auth()).expect(404);
    expect(missing.body.error.message).toMatch(/no revision 7/);
  });
});

describe('restoring a revision', () => {
  it('gives back every kind of field, keeps the article live with its publication time, and is itself a new revision', async () => {
    const article = await create({
      summary: 'Typed summary of the first version.',
      tags: 'Harbour, Rain',
      cover_image_url: 'https://photos.example/first.jpg',
      author: 'Rani',
      meta_title: 'First meta title',
      meta_keywords: 'harbour, rain',
    });
    await patch(article.slug, {
      title: 'Everything changed',
      content: 'Entirely new words.',
      summary: 'Another summary.',
      tags: 'Night',
      cover_image_url: 'https://photos.example/second.jpg',
      author: 'Budi',
      meta_title: 'Second meta title',
      meta_keywords: '',
      category: 'Landscapes',
    }).expect(200);

    const restored = await restore(article.slug, 1).expect(200);
    expect(restored.headers.etag).toMatch(/^"/);
    const live = (await app.api().get(`/api/artikel/${article.slug}`).expect(200)).body.data as Article;
    for (const field of [
      'title',
      'content',
      'summary',
      'tags',
      'cover_image_url',
      'author',
      'meta_title',
      'meta_keywords',
      'category',
    ] as const) {
      expect(live[field]).toEqual(article[field]);
    }
    expect(live.slug).toBe(article.slug);
    expect(live.status).toBe('published');
    expect(live.published_at).toBe(article.published_at);
    expect((restored.body as { data: Article }).data.title).toBe(article.title);

    const [latest] = await revisionsOf(article.slug);
    expect(latest).toMatchObject({ number: 3, action: 'restore', restored_from: 1 });
    expect(latest.actor.kind).toBe('api-token');
  });

  it('generates a generated summary again from the restored content', async () => {
    const article = await create({ content: 'Lanterns along the pier. Nobody walks there at night.' });
    await patch(article.slug, { content: 'A wholly different first sentence here. Then more.' }).expect(200);
    await restore(article.slug, 1).expect(200);
    const live = (await app.api().get(`/api/artikel/${article.slug}`).expect(200)).body.data as Article;
    expect(live.summary).toBe(article.summary);
    await patch(article.slug, { content: 'After the restore the summary still follows the content.' }).expect(200);
    const after = (await app.api().get(`/api/artikel/${article.slug}`).expect(200)).body.data as Article;
    expect(after.summary).toBe('After the restore the summary still follows the content.');
  });

  it('after an unpublish, restores the text and leaves the article a draft', async () => {
    const article = await create();
    await patch(article.slug, { title: 'A later title' }).expect(200);
    await patch(article.slug, { status: 'draft' }).expect(200);
    const answer = await restore(article.slug, 1).expect(200);
    expect((answer.body as { data: Article }).data).toMatchObject({ title: article.title, status: 'draft' });
    await app.api().get(`/api/artikel/${article.slug}`).expect(404);
  });

  it('refuses a restore that changes nothing, a stale If-Match, a body and unknown numbers, changing nothing', async () => {
    const article = await create();
    await patch(article.slug, { title: 'Second title' }).expect(200);
    const same = await restore(article.slug, 2).expect(400);
    expect(isContractError(same)).toBe(true);
    expect(same.body.error.message).toMatch(/already has the text of revision 2/);

    const stale = await restore(article.slug, 1, { 'If-Match': '"0000000000000000.0000000000000000"' });
    expect(stale.status).toBe(412);
    const withBody = await app.api().post(`/api/artikel/${article.slug}/revisions/1/restore`).set(app.auth()).send({ title: 'x' });
    expect(withBody.status).toBe(400);
    expect(withBody.body.error.details.errors.map((error: { path: string[] }) => error.path)).toEqual([['title']]);
    expect((await restore(article.slug, 99)).status).toBe(404);
    for (const bad of ['0', 'abc', '2147483648', '1.5']) {
      const answer = await app.api().get(`/api/artikel/${article.slug}/revisions/${bad}`).set(app.auth());
      expect(answer.status).toBe(400);
      expect(isContractError(answer)).toBe(true);
      expect(answer.body.error.details.errors[0].path).toEqual(['number']);
    }
    const dryRun = await app.api().post(`/api/artikel/${article.slug}/revisions/1/restore?dry_run=true`).set(app.auth()).expect(200);
    expect(dryRun.body.meta).toEqual({ dry_run: true });
    expect(dryRun.body.data.title).toBe(article.title);
    expect((await app.api().get(`/api/artikel/${article.slug}`).expect(200)).body.data.title).toBe('Second title');
    expect((await revisionsOf(article.slug)).length).toBe(2);
  });

  it('a moved article answers at its current slug; its old slug is a 404 that names where it is', async () => {
    const article = await create();
    await patch(article.slug, { slug: `${article.slug}-moved` }).expect(200);
    const old = await app.api().get(`/api/artikel/${article.slug}/revisions`).set(app.auth()).expect(404);
    expect(old.body.error.message).toContain(`${article.slug}-moved`);
    expect((await revisionsOf(`${article.slug}-moved`)).map((entry) => entry.changed)).toEqual([['slug'], expect.any(Array)]);
  });
});

describe('who may read and restore revisions', () => {
  it('a token that may update may; a read-only token, a token that may only create and no token may not', async () => {
    const article = await create();
    await app.api().get(`/api/artikel/${article.slug}/revisions`).set(bearer(updater)).expect(200);
    const readOnly = await createApiToken(app.strapi, 'read-only');
    const creator = await createApiToken(app.strapi, 'custom', ['plugin::artikel.artikel.create']);
    for (const token of [readOnly, creator]) {
      expect((await app.api().get(`/api/artikel/${article.slug}/revisions`).set(bearer(token))).status).toBe(403);
      expect((await app.api().post(`/api/artikel/${article.slug}/revisions/1/restore`).set(bearer(token))).status).toBe(403);
    }
    expect((await app.api().get(`/api/artikel/${article.slug}/revisions`)).status).toBe(401);
    expect((await app.api().get(`/api/artikel/${article.slug}/revisions/1`)).status).toBe(401);
  });

  it('a deleted article keeps its revisions in the trash; purging it removes them', async () => {
    const article = await create();
    await patch(article.slug, { title: 'Soon gone' }).expect(200);
    expect(await storedRevisions(article.id)).toBe(2);
    await app.api().delete(`/api/artikel/${article.slug}`).set(app.auth()).expect(204);
    expect(await storedRevisions(article.id)).toBe(2);
    await app.api().get(`/api/artikel/${article.slug}/revisions`).set(app.auth()).expect(404);
    await editor.del(`/artikel/trash/${article.id}`).expect(204);
    expect(await storedRevisions(article.id)).toBe(0);
  });
});
