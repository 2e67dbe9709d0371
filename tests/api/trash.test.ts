import { ARTICLES_PATH, type Editor, registerEditor } from '../helpers/admin';
import { isContractError } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';
import { eventually } from '../helpers/eventually';

let app: TestApp;
let editor: Editor;
let counter = 0;

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: true, env: { ARTIKEL_RATE_LIMIT: '0', ARTIKEL_CLEANUP_SECONDS: '1' } });
  editor = await registerEditor(app);
});

afterAll(async () => {
  await app.stop();
});

interface Article {
  id: string;
  slug: string;
  title: string;
  views: number;
  status: string;
  published_at: string | null;
}
interface TrashEntry {
  document_id: string;
  slug: string;
  title: string;
  deleted_at: string;
  deleted_by: { kind: string; name: string | null };
  was_published_at: string | null;
  purge_after: string;
}

async function create(fields: Record<string, string> = {}): Promise<Article> {
  counter += 1;
  const body = { title: `Boats at dusk ${counter}`, category: 'Studio', content: `Masts against the sky, evening ${counter}.`, ...fields };
  return (await app.api().post('/api/artikel').set(app.auth()).send(body).expect(201)).body.data as Article;
}

const remove = (slug: string) => app.api().delete(`/api/artikel/${slug}`).set(app.auth());
const trashList = async (): Promise<TrashEntry[]> => (await editor.get('/artikel/trash').expect(200)).body.data as TrashEntry[];

async function listedSlugs(): Promise<string[]> {
  const answer = await app.api().get('/api/artikel?limit=50').expect(200);
  return (answer.body.data as Article[]).map((article) => article.slug);
}

async function storedCount(table: string, column: string, documentId: string): Promise<number> {
  const [row] = (await app.strapi.db.connection(table).where(column, documentId).count({ total: '*' })) as Array<{
    total: number | string;
  }>;
  return Number(row.total);
}

describe('the trash', () => {
  it('takes a deleted article off every public read at once; an editor restores it with its id, views, slug, old slugs and revisions', async () => {
    const article = await create();
    for (let read = 0; read < 3; read += 1) await app.api().get(`/api/artikel/${article.slug}`).expect(200);
    const moved = `${article.slug}-renamed`;
    await app.api().patch(`/api/artikel/${article.slug}`).set(app.auth()).send({ slug: moved }).expect(200);
    await remove(moved).expect(204);

    await app.api().get(`/api/artikel/${moved}`).expect(404);
    await app.api().get(`/api/artikel/${article.slug}`).expect(404);
    expect(await listedSlugs()).not.toContain(moved);
    const [entry] = (await trashList()).filter((item) => item.document_id === article.id);
    expect(entry).toMatchObject({
      slug: moved,
      title: article.title,
      deleted_by: { kind: 'api-token' },
      was_published_at: article.published_at,
    });
    expect(Date.parse(entry.purge_after) - Date.parse(entry.deleted_at)).toBeGreaterThan(29 * 86_400_000);

    const restored = await editor.post(`/artikel/trash/${article.id}/restore`).expect(200);
    expect(restored.body.data).toEqual({ documentId: article.id, slug: moved });
    const live = (await app.api().get(`/api/artikel/${moved}`).expect(200)).body.data as Article;
    expect(live).toMatchObject({ id: article.id, title: article.title, views: 4, status: 'published', published_at: article.published_at });
    expect(await listedSlugs()).toContain(moved);
    const redirect = await app.api().get(`/api/artikel/${article.slug}`).expect(301);
    expect(redirect.headers.location).toBe(`/api/artikel/${moved}`);
    const revisions = (await app.api().get(`/api/artikel/${moved}/revisions`).set(app.auth()).expect(200)).body.data as Array<{
      number: number;
      action: string;
      restored_from: number | null;
    }>;
    // Its two revisions, and the restore from the trash as a third.
    expect(revisions.map((revision) => [revision.number, revision.action, revision.restored_from])).toEqual([
      [3, 'restore', 2],
      [2, 'update', null],
      [1, 'create', null],
    ]);
    expect((await trashList()).map((item) => item.document_id)).not.toContain(article.id);
  });

  it('holds the slug of a trashed article: an explicit slug is a 409, a generated one skips it; after the purge both are free', async () => {
    const article = await create({ title: 'Night ferry' });
    await remove(article.slug).expect(204);
    const taken = await app
      .api()
      .post('/api/artikel')
      .set(app.auth())
      .send({ title: 'Other', category: 'Studio', content: 'x', slug: article.slug });
    expect(taken.status).toBe(409);
    expect(isContractError(taken)).toBe(true);
    const generated = await create({ title: 'Night ferry' });
    expect(generated.slug).toBe(`${article.slug}-2`);

    await editor.del(`/artikel/trash/${article.id}`).expect(204);
    expect(await storedCount('artikel_revisions', 'article_document_id', article.id)).toBe(0);
    const reborn = await create({ slug: article.slug });
    expect(reborn.slug).toBe(article.slug);
    expect((await editor.post(`/artikel/trash/${article.id}/restore`)).status).toBe(404);
  });

  it('keeps an article deleted in the admin as well; emptying the trash purges it with its views and revisions', async () => {
    const article = await create();
    await app.api().get(`/api/artikel/${article.slug}`).expect(200);
    // On SQLite views are written once a second (ARTIKEL_VIEW_WRITE_MS): the trash holds the written count.
    await eventually(
      () => storedCount('artikel_view_counts', 'article_document_id', article.id),
      (count) => count > 0,
      { withinMs: 10_000, everyMs: 100 },
    );
    await editor.del(`${ARTICLES_PATH}/${article.id}`).expect(200);
    await app.api().get(`/api/artikel/${article.slug}`).expect(404);
    const entry = (await trashList()).find((item) => item.document_id === article.id);
    expect(entry?.deleted_by).toEqual({ kind: 'editor', name: 'Eda Editor' });
    expect(await storedCount('artikel_view_counts', 'article_document_id', article.id)).toBe(1);

    const emptied = await editor.del('/artikel/trash').expect(200);
    expect(emptied.body.data.purged).toBeGreaterThanOrEqual(1);
    expect(await trashList()).toEqual([]);
    expect(await storedCount('artikel_view_counts', 'article_document_id', article.id)).toBe(0);
    expect(await storedCount('artikel_revisions', 'article_document_id', article.id)).toBe(0);
  });

  it('restores a draft as a draft', async () => {
    const draft = await create({ status: 'draft' });
    await remove(draft.slug).expect(204);
    await editor.post(`/artikel/trash/${draft.id}/restore`).expect(200);
    await app.api().get(`/api/artikel/${draft.slug}`).expect(404);
    const again = await app.api().patch(`/api/artikel/${draft.slug}`).set(app.auth()).send({ status: 'published' }).expect(200);
    expect(again.body.data.id).toBe(draft.id);
  });

  it('purges an article by itself once its time in the trash is up', async () => {
    const article = await create();
    await remove(article.slug).expect(204);
    const past = Date.now() - 1000;
    await app.strapi.db
      .connection('artikel_trash')
      .where('article_document_id', article.id)
      .update({ purge_after: app.store === 'sqlite' ? past : new Date(past) });
    const trashed = await eventually(trashList, (items) => !items.some((item) => item.document_id === article.id), { withinMs: 30_000 });
    expect(trashed.map((item) => item.document_id)).not.toContain(article.id);
    expect((await create({ slug: article.slug })).slug).toBe(article.slug);
  });

  it('answers an unknown id with a 404 and a request without an admin session with a 401', async () => {
    const unknown = await editor.post('/artikel/trash/nosuchdocumentid000000000/restore');
    expect(unknown.status).toBe(404);
    expect(isContractError(unknown)).toBe(true);
    expect((await app.api().get('/artikel/trash')).status).toBe(401);
    expect((await app.api().delete('/artikel/trash')).status).toBe(401);
  });
});
