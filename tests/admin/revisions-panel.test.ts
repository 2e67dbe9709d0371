import type supertest from 'supertest';
import { ARTICLES_PATH, type Editor, registerEditor, timed } from '../helpers/admin';
import { isContractError } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

let app: TestApp;
let editor: Editor;
let counter = 0;

const ARTICLE = 'api::article.article';

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: true, env: { ARTIKEL_RATE_LIMIT: '0' } });
  editor = await registerEditor(app);
});

afterAll(async () => {
  await app.stop();
});

interface RevisionEntry {
  number: number;
  action: string;
  created_at: string;
  actor: { kind: string; id: string | null; name: string | null };
  restored_from: number | null;
  changed: string[];
}
interface RevisionDetail extends RevisionEntry {
  article: { title: string; summary: string; content: string };
  text_changes: Array<{ field: string; parts: Array<{ kind: string; text: string }> }>;
}
interface Article {
  id: string;
  slug: string;
  title: string;
  content: string;
  status: string;
  published_at: string | null;
}

/** An article the API token publishes, as a client of the API would. */
async function createByToken(): Promise<Article> {
  counter += 1;
  const body = { title: `Boats at dawn ${counter}`, category: 'Studio', content: `Grey water and three red boats, morning ${counter}.` };
  return (await app.api().post('/api/artikel').set(app.auth()).send(body).expect(201)).body.data as Article;
}

/** The editor changes the title and content in the edit view and clicks Publish, which sends the changes with it (one request). */
async function editInAdmin(article: Article, title: string, content: string): Promise<void> {
  await editor.post(`${ARTICLES_PATH}/${article.id}/actions/publish`, { title, content }).expect(200);
}

const list = (as: Editor, documentId: string) => as.get(`/artikel/revisions/${documentId}`);
const detail = (as: Editor, documentId: string, number: number | string) => as.get(`/artikel/revisions/${documentId}/${number}`);
const restore = (as: Editor, documentId: string, number: number | string) => as.post(`/artikel/revisions/${documentId}/${number}/restore`);

/**
 * A second administrator with a role of its own holding only these Content Manager actions on
 * Articles, invited by the super admin and registered as the invitation's form does.
 */
async function editorWithRole(name: string, actions: string[]): Promise<Editor> {
  const role = (await editor.post('/admin/roles', { name, description: `${name} (test)` }).expect(201)).body.data as { id: number };
  const permissions = actions.map((action) => ({
    action: `plugin::content-manager.explorer.${action}`,
    subject: ARTICLE,
    properties: {},
    conditions: [],
  }));
  await editor.put(`/admin/roles/${role.id}/permissions`, { permissions }).expect(200);
  return invite(name, role.id);
}

/** An administrator with Strapi's Author role, which may read and update only the articles they created. */
async function author(): Promise<Editor> {
  const roles = (await editor.get('/admin/roles').expect(200)).body.data as Array<{ id: number; code: string }>;
  const role = roles.find((candidate) => candidate.code === 'strapi-author');
  if (role === undefined) throw new Error('no Author role');
  return invite('Author', role.id);
}

async function invite(name: string, roleId: number): Promise<Editor> {
  const email = `${name.toLowerCase()}@studio.example`;
  const invited = await editor.post('/admin/users', { firstname: name, lastname: 'Tester', email, roles: [roleId] }).expect(201);
  const registered = await app
    .api()
    .post('/admin/register')
    .send({
      registrationToken: invited.body.data.registrationToken,
      userInfo: { firstname: name, lastname: 'Tester', password: 'Role-Passw0rd' },
    })
    .expect(200);
  const jwt = registered.body.data.token as string;
  const sign = (test: supertest.Test) => test.set('Authorization', `Bearer ${jwt}`);
  return {
    get: (url) => sign(app.api().get(url)),
    post: (url, body = {}) => sign(app.api().post(url).send(body)),
    put: (url, body) => sign(app.api().put(url).send(body)),
    del: (url) => sign(app.api().delete(url)),
    signed: sign,
  };
}

describe('the Revisions panel, through the admin routes it calls', () => {
  it('lists an article created by an API token and changed by an editor with both revisions, newest first, and who made each', async () => {
    const article = await createByToken();
    await editInAdmin(article, 'Boats at noon', 'Grey water and four blue boats.');

    const answer = await timed('revisions list', () => list(editor, article.id).expect(200));
    const entries = answer.body.data as RevisionEntry[];

    expect(answer.headers['cache-control']).toBe('private, no-store');
    expect(entries.map((entry) => [entry.number, entry.action])).toEqual([
      [2, 'publish'],
      [1, 'create'],
    ]);
    expect(entries[0].actor).toEqual({ kind: 'editor', id: expect.any(String), name: 'Eda Editor' });
    expect(entries[0].changed).toEqual(expect.arrayContaining(['title', 'content']));
    expect(entries[1].actor).toMatchObject({ kind: 'api-token', name: expect.stringMatching(/^test-full-access-/) });
  });

  it("names an editor's Publish of a live article a publish: of the changes it sends, or of those saved before, listing what changed", async () => {
    const sent = await createByToken();
    await editInAdmin(sent, 'Boats at noon', 'Grey water and four blue boats.');
    const [publishedWithChanges] = (await list(editor, sent.id).expect(200)).body.data as RevisionEntry[];
    expect(publishedWithChanges).toMatchObject({ number: 2, action: 'publish', actor: { kind: 'editor' } });
    expect(publishedWithChanges.changed).toEqual(expect.arrayContaining(['title', 'content']));

    const saved = await createByToken();
    await editor.put(`${ARTICLES_PATH}/${saved.id}`, { title: 'Boats at dusk' }).expect(200);
    await editor.post(`${ARTICLES_PATH}/${saved.id}/actions/publish`, {}).expect(200);
    const entries = (await list(editor, saved.id).expect(200)).body.data as RevisionEntry[];
    expect(entries.map((entry) => [entry.number, entry.action, entry.changed])).toEqual([
      [3, 'publish', []],
      [2, 'update', ['title', 'meta_title']],
      [1, 'create', expect.any(Array)],
    ]);
    expect((await app.api().get(`/api/artikel/${saved.slug}`).expect(200)).body.data.title).toBe('Boats at dusk');

    // Publishing again what is live already changes nothing, and keeps no revision.
    await editor.post(`${ARTICLES_PATH}/${saved.id}/actions/publish`, {}).expect(200);
    expect((await list(editor, saved.id).expect(200)).body.data).toHaveLength(3);
  });

  it("keeps naming an API token's change of a live article an update: it changed the text, and never left the site", async () => {
    const article = await createByToken();
    await app.api().patch(`/api/artikel/${article.slug}`).set(app.auth()).send({ title: 'Boats at night' }).expect(200);
    const [changed] = (await list(editor, article.id).expect(200)).body.data as RevisionEntry[];
    expect(changed).toMatchObject({ number: 2, action: 'update', actor: { kind: 'api-token' } });
  });

  it('shows what a revision changed in the title and content word by word', async () => {
    const article = await createByToken();
    await editInAdmin(article, 'Boats at noon', article.content.replace('three red', 'four blue'));

    const shown = (await timed('revision detail', () => detail(editor, article.id, 2).expect(200))).body.data as RevisionDetail;

    expect(shown.article.title).toBe('Boats at noon');
    const content = shown.text_changes.find((change) => change.field === 'content');
    expect(content?.parts.filter((part) => part.kind !== 'same')).toEqual([
      { kind: 'removed', text: 'three red' },
      { kind: 'added', text: 'four blue' },
    ]);
    expect(content?.parts[0]).toEqual({ kind: 'same', text: 'Grey water and ' });
    expect(shown.text_changes.find((change) => change.field === 'title')?.parts).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'added' }), expect.objectContaining({ kind: 'removed' })]),
    );
  });

  it('restores revision 1 as a new revision by the editor: the public article shows the old text, still published with its publication time', async () => {
    const article = await createByToken();
    await editInAdmin(article, 'Boats at noon', 'Grey water and four blue boats.');
    const before = (await app.api().get(`/api/artikel/${article.slug}`).expect(200)).body.data as Article;
    expect(before.title).toBe('Boats at noon');

    const restored = await timed('restore', () => restore(editor, article.id, 1).expect(200));

    expect(restored.body.data).toMatchObject({ title: article.title, content: article.content, status: 'published' });
    const live = (await app.api().get(`/api/artikel/${article.slug}`).expect(200)).body.data as Article;
    expect(live).toMatchObject({ title: article.title, content: article.content, status: 'published', published_at: before.published_at });
    const entries = (await list(editor, article.id).expect(200)).body.data as RevisionEntry[];
    expect(entries[0]).toMatchObject({ number: 3, action: 'restore', restored_from: 1, actor: { kind: 'editor', name: 'Eda Editor' } });
    // The edit view reads the draft: it holds the restored text too.
    const draft = (await editor.get(`${ARTICLES_PATH}/${article.id}`).expect(200)).body.data as { title: string; publishedAt: unknown };
    expect(draft.title).toBe(article.title);
  });

  it("compares any two versions: the older one's words removed, the newer one's added, whichever is asked first", async () => {
    const article = await createByToken();
    await editInAdmin(article, 'Boats at noon', article.content);
    await editInAdmin(article, 'Boats at noon', article.content.replace('three red', 'four blue'));

    const byDefault = (await detail(editor, article.id, 3).expect(200)).body.data as RevisionDetail & { compared_with: number | null };
    expect(byDefault.compared_with).toBe(2);
    // Against the version before it, only the content (and the summary made from it) changed.
    expect(byDefault.text_changes.map((change) => change.field)).not.toContain('title');
    expect(byDefault.text_changes.map((change) => change.field)).toContain('content');

    const againstFirst = (await editor.get(`/artikel/revisions/${article.id}/3?against=1`).expect(200)).body.data as RevisionDetail & {
      compared_with: number | null;
    };
    expect(againstFirst).toMatchObject({ number: 3, compared_with: 1 });
    expect(againstFirst.text_changes.map((change) => change.field)).toEqual(expect.arrayContaining(['title', 'content']));
    const title = againstFirst.text_changes.find((change) => change.field === 'title');
    expect(
      title?.parts
        .filter((part) => part.kind === 'removed')
        .map((part) => part.text)
        .join(' '),
    ).toMatch(/dawn/);
    expect(
      title?.parts
        .filter((part) => part.kind === 'added')
        .map((part) => part.text)
        .join(' '),
    ).toMatch(/noon/);

    // Asked from the older side, the same difference: what the newer one holds is what was added.
    const fromOlder = (await editor.get(`/artikel/revisions/${article.id}/1?against=3`).expect(200)).body.data as RevisionDetail;
    expect(fromOlder.text_changes).toEqual(againstFirst.text_changes);
    expect(fromOlder.article.title).toBe(article.title);

    const unknown = await editor.get(`/artikel/revisions/${article.id}/3?against=9`).expect(404);
    expect(unknown.body.error.message).toMatch(/no revision 9/);
    const bad = await editor.get(`/artikel/revisions/${article.id}/3?against=first`).expect(400);
    expect(bad.body.error.message).toMatch(/against must be a whole number/);
    await editor.get(`/artikel/revisions/${article.id}/3?versus=1`).expect(400);
  });

  it('refuses a bad number with a 400 naming number, an unknown revision or article with a 404, never a 5xx', async () => {
    const article = await createByToken();
    for (const bad of ['0', '-1', 'abc', '1.5', '99999999999']) {
      const answer = await detail(editor, article.id, bad).expect(400);
      expect(isContractError(answer)).toBe(true);
      expect(JSON.stringify(answer.body.error.details)).toContain('number');
      const refused = await restore(editor, article.id, bad).expect(400);
      expect(JSON.stringify(refused.body.error.details)).toContain('number');
    }
    expect(isContractError(await detail(editor, article.id, 7).expect(404))).toBe(true);
    expect(isContractError(await restore(editor, article.id, 7).expect(404))).toBe(true);
    expect(isContractError(await list(editor, 'nosuchdocumentid000000000').expect(404))).toBe(true);
    // A restore that would change nothing (the article has revision 1's text) changes nothing and says so.
    expect(isContractError(await restore(editor, article.id, 1).expect(400))).toBe(true);
    expect(isContractError(await editor.post(`/artikel/revisions/${article.id}/1/restore`, { title: 'x' }).expect(400))).toBe(true);
  });

  it('refuses a request without an admin JWT, and an API token, with a 401', async () => {
    const article = await createByToken();
    await app.api().get(`/artikel/revisions/${article.id}`).expect(401);
    await app.api().post(`/artikel/revisions/${article.id}/1/restore`).expect(401);
    await app.api().get(`/artikel/revisions/${article.id}`).set(app.auth()).expect(401);
  });

  it('lets an editor whose role may only read Articles see the revisions but not restore one, changing nothing', async () => {
    const reader = await editorWithRole('Reader', ['read']);
    const article = await createByToken();
    await editInAdmin(article, 'Boats at noon', 'Grey water and four blue boats.');

    expect((await list(reader, article.id).expect(200)).body.data).toHaveLength(2);
    await detail(reader, article.id, 1).expect(200);
    const refused = await restore(reader, article.id, 1).expect(403);

    expect(isContractError(refused)).toBe(true);
    expect((await app.api().get(`/api/artikel/${article.slug}`).expect(200)).body.data.title).toBe('Boats at noon');
    expect((await list(editor, article.id).expect(200)).body.data).toHaveLength(2);
  });

  it("lets an Author see and restore the revisions of their own article, not another's", async () => {
    const writer = await author();
    const own = (
      await writer
        .post(ARTICLES_PATH, {
          title: 'Own draft',
          content: 'Lanterns in the barn.',
          category: { connect: [{ documentId: app.categoryId }] },
        })
        .expect(201)
    ).body.data as { documentId: string };
    await writer.put(`${ARTICLES_PATH}/${own.documentId}`, { title: 'Own draft, edited' }).expect(200);
    const others = await createByToken();

    expect((await list(writer, own.documentId).expect(200)).body.data).toHaveLength(2);
    await restore(writer, own.documentId, 1).expect(200);
    expect(isContractError(await list(writer, others.id).expect(403))).toBe(true);
    await detail(writer, others.id, 1).expect(403);
  });

  it('lets an editor who may update but not publish restore a draft, but not a published article', async () => {
    const reviser = await editorWithRole('Reviser', ['read', 'update']);
    const article = await createByToken();
    await editInAdmin(article, 'Boats at noon', 'Grey water and four blue boats.');

    const refused = await restore(reviser, article.id, 1).expect(403);
    expect(refused.body.error.message).toMatch(/publish/);
    expect((await app.api().get(`/api/artikel/${article.slug}`).expect(200)).body.data.title).toBe('Boats at noon');

    await editor.post(`${ARTICLES_PATH}/${article.id}/actions/unpublish`, {}).expect(200);
    await restore(reviser, article.id, 1).expect(200);
    const draft = (await editor.get(`${ARTICLES_PATH}/${article.id}`).expect(200)).body.data as { title: string };
    expect(draft.title).toBe(article.title);
    await app.api().get(`/api/artikel/${article.slug}`).expect(404);
  });
});
