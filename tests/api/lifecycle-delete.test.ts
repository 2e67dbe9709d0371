import { type Editor, registerEditor } from '../helpers/admin';
import { expectEverywhere, expectNowhere, publicPresence, SITE_ARTICLE_URL } from '../helpers/public-reads';
import { isContractError } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';
import { createApiToken } from '../helpers/tokens';
import { startWebhookReceiver, webhookForm, type WebhookReceiver } from '../helpers/webhook-receiver';

let app: TestApp;
let editor: Editor;
let receiver: WebhookReceiver;
let counter = 0;

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: true, env: { SITE_ARTICLE_URL } });
  receiver = await startWebhookReceiver();
  editor = await registerEditor(app);
  await editor.post('/admin/webhooks', webhookForm(receiver)).expect(201);
});

afterAll(async () => {
  await app?.stop();
  await receiver?.close();
});

interface Article {
  id: string;
  slug: string;
  title: string;
  views: number;
}

async function create(fields: Record<string, string> = {}): Promise<Article> {
  counter += 1;
  const body = { title: `Last light on the pier ${counter}`, category: 'Studio', content: `Evening ${counter}. Gulls.`, ...fields };
  return (await app.api().post('/api/artikel').set(app.auth()).send(body).expect(201)).body.data as Article;
}

/** An editor purges the deleted article from the trash (a deleted article holds its slugs until then). */
const purge = (documentId: string) => editor.del(`/artikel/trash/${documentId}`).expect(204);

const del = (slug: string, headers: Record<string, string> = {}) =>
  app
    .api()
    .delete(`/api/artikel/${slug}`)
    .set({ ...app.auth(), ...headers });

describe('DELETE /api/artikel/{slug}', () => {
  it('answers 204 without a body, and every public read behaves as if the article had never been published', async () => {
    const article = await create();
    await app.api().get(`/api/artikel/${article.slug}`).expect(200);
    const before = await publicPresence(app, article.slug);
    expectEverywhere(before);

    const answer = await del(article.slug).expect(204);
    expect(answer.text ?? '').toBe('');
    expect(answer.body).toEqual({});

    const after = await publicPresence(app, article.slug);
    expectNowhere(after);
    expect(after.listTotal).toBe(before.listTotal - 1);
    expect(after.categoryCount).toBe(before.categoryCount - 1);
    const missing = await app.api().get(`/api/artikel/${article.slug}`).expect(404);
    expect(isContractError(missing)).toBe(true);
  });

  it('answers 404 to a second DELETE of the same slug, and to a slug no article has', async () => {
    const article = await create();
    await del(article.slug).expect(204);
    const again = await del(article.slug).expect(404);
    expect(isContractError(again)).toBe(true);
    expect(again.body.error.name).toBe('NotFoundError');
    await del('never-was-an-article').expect(404);
  });

  it('deletes a draft too, found by its slug', async () => {
    const draft = await create({ status: 'draft' });
    await del(draft.slug).expect(204);
    await del(draft.slug).expect(404);
    // Once purged from the trash the slug is free again: a new article may take it.
    await purge(draft.id);
    const reborn = await create({ slug: draft.slug });
    expect(reborn.slug).toBe(draft.slug);
  });

  it('holds the slug in the trash; purged, it is free: a new article may take it and starts with no views of the old one', async () => {
    const article = await create();
    for (let read = 0; read < 3; read += 1) await app.api().get(`/api/artikel/${article.slug}`).expect(200);
    await del(article.slug).expect(204);
    const held = await app
      .api()
      .post('/api/artikel')
      .set(app.auth())
      .send({ title: 'Too early', category: 'Studio', content: 'New words.', slug: article.slug });
    expect(held.status).toBe(409);
    await purge(article.id);

    const successor = await app
      .api()
      .post('/api/artikel')
      .set(app.auth())
      .send({ title: 'A successor', category: 'Studio', content: 'New words.', slug: article.slug })
      .expect(201);
    expect(successor.body.data.slug).toBe(article.slug);
    expect(successor.body.data.id).not.toBe(article.id);
    const read = await app.api().get(`/api/artikel/${article.slug}`).expect(200);
    expect(read.body.data).toMatchObject({ id: successor.body.data.id, title: 'A successor', views: 1 });
  });

  it('takes the old slugs of a moved article off the public reads (404), and frees them with the purge', async () => {
    const article = await create();
    const first = `${article.slug}-moved-once`;
    const second = `${article.slug}-moved-twice`;
    await app.api().patch(`/api/artikel/${article.slug}`).set(app.auth()).send({ slug: first }).expect(200);
    await app.api().patch(`/api/artikel/${first}`).set(app.auth()).send({ slug: second }).expect(200);
    await app.api().get(`/api/artikel/${article.slug}`).expect(301);

    await del(second).expect(204);
    for (const slug of [article.slug, first, second]) {
      await app.api().get(`/api/artikel/${slug}`).expect(404);
      await app.api().head(`/api/artikel/${slug}`).expect(404);
      await del(slug).expect(404);
    }
    await purge(article.id);
    const taken = await create({ slug: article.slug });
    expect(taken.slug).toBe(article.slug);
    expect((await app.api().get(`/api/artikel/${article.slug}`).expect(200)).body.data.id).toBe(taken.id);
  });

  it("sends Strapi's entry.delete webhook for the deleted article", async () => {
    const article = await create();
    await del(article.slug).expect(204);
    await receiver.waitFor(() => receiver.eventsFor(article.id, 'entry.delete').length > 0);
    const [call] = receiver.eventsFor(article.id, 'entry.delete');
    expect(call.header).toBe('entry.delete');
    expect(call.uid).toBe('api::article.article');
  });
});

describe('DELETE /api/artikel/{slug} credentials', () => {
  it('refuses no token with a 401, and a read-only token or one that may only update with a 403; the article stays', async () => {
    const article = await create();
    const anonymous = await app.api().delete(`/api/artikel/${article.slug}`).expect(401);
    expect(anonymous.body).toMatchObject({ data: null, error: { status: 401, name: 'UnauthorizedError' } });
    const readOnly = await createApiToken(app.strapi, 'read-only');
    const updateOnly = await createApiToken(app.strapi, 'custom', ['plugin::artikel.artikel.update']);
    for (const token of [readOnly, updateOnly]) {
      const refused = await app.api().delete(`/api/artikel/${article.slug}`).set('Authorization', `Bearer ${token}`).expect(403);
      expect(refused.body.error.name).toBe('ForbiddenError');
    }
    await app.api().get(`/api/artikel/${article.slug}`).expect(200);
  });

  it('accepts a custom token holding the delete action', async () => {
    const article = await create();
    const deleter = await createApiToken(app.strapi, 'custom', ['plugin::artikel.artikel.delete']);
    await app.api().delete(`/api/artikel/${article.slug}`).set('Authorization', `Bearer ${deleter}`).expect(204);
    await app.api().get(`/api/artikel/${article.slug}`).expect(404);
  });
});

describe('DELETE with If-Match', () => {
  it('accepts the ETag of the public GET, even after more views were counted', async () => {
    const article = await create();
    const tag = (await app.api().get(`/api/artikel/${article.slug}`).expect(200)).headers.etag as string;
    await app.api().get(`/api/artikel/${article.slug}`).expect(200);
    await del(article.slug, { 'If-Match': tag }).expect(204);
    await app.api().get(`/api/artikel/${article.slug}`).expect(404);
  });

  it('accepts the ETag of the last PATCH answer', async () => {
    const article = await create();
    const patched = await app.api().patch(`/api/artikel/${article.slug}`).set(app.auth()).send({ title: 'About to go' }).expect(200);
    await del(article.slug, { 'If-Match': patched.headers.etag as string }).expect(204);
  });

  it('refuses a stale ETag with 412 PreconditionFailedError and keeps the article', async () => {
    const article = await create();
    const stale = (await app.api().get(`/api/artikel/${article.slug}`).expect(200)).headers.etag as string;
    await app.api().patch(`/api/artikel/${article.slug}`).set(app.auth()).send({ title: 'Changed meanwhile' }).expect(200);
    const refused = await del(article.slug, { 'If-Match': stale }).expect(412);
    expect(isContractError(refused)).toBe(true);
    expect(refused.body.error.name).toBe('PreconditionFailedError');
    expect((await app.api().get(`/api/artikel/${article.slug}`).expect(200)).body.data.title).toBe('Changed meanwhile');
  });

  it('refuses a malformed If-Match with a 400 and keeps the article', async () => {
    const article = await create();
    const refused = await del(article.slug, { 'If-Match': 'abc' }).expect(400);
    expect(isContractError(refused)).toBe(true);
    await app.api().get(`/api/artikel/${article.slug}`).expect(200);
  });

  it('lets If-Match: * match any existing article', async () => {
    const article = await create();
    await del(article.slug, { 'If-Match': '*' }).expect(204);
    await app.api().get(`/api/artikel/${article.slug}`).expect(404);
  });
});
