import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type supertest from 'supertest';
import { ARTICLES_PATH, connect, registerEditor, uniqueTitle, type Editor } from '../helpers/admin';
import { removeServiceDatabase, startServiceProcess } from '../helpers/service-process';
import { startStrapi, type TestApp } from '../helpers/strapi';

const SITE_ARTICLE_URL = 'https://studio.example/artikel/{slug}';
let app: TestApp;
let superAdmin: Editor;
let author: Editor;

/** An administrator with the Author role, invited by the super admin and registered as the invitation's form does. */
async function registerAuthor(): Promise<Editor> {
  const roles = (await superAdmin.get('/admin/roles').expect(200)).body.data as Array<{ id: number; code: string }>;
  const authorRole = roles.find((role) => role.code === 'strapi-author');
  const invited = await superAdmin
    .post('/admin/users', { firstname: 'Ari', lastname: 'Author', email: 'author@studio.example', roles: [authorRole?.id] })
    .expect(201);
  const registered = await app
    .api()
    .post('/admin/register')
    .send({
      registrationToken: invited.body.data.registrationToken,
      userInfo: { firstname: 'Ari', lastname: 'Author', password: 'Author-Passw0rd' },
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

beforeAll(async () => {
  app = await startStrapi({ env: { SITE_ARTICLE_URL }, category: { name: 'Events', slug: 'events' } });
  superAdmin = await registerEditor(app);
  author = await registerAuthor();
});

afterAll(async () => {
  await app.stop();
});

const draftBy = async (editor: Editor): Promise<string> =>
  (
    await editor
      .post(ARTICLES_PATH, { title: uniqueTitle('Draft'), content: 'Lanterns in the barn.', category: connect(app.categoryId) })
      .expect(201)
  ).body.data.documentId;

const previewOf = (editor: Editor, documentId: string) =>
  editor.get(`/content-manager/preview/url/api::article.article?documentId=${documentId}&status=draft`);

describe("preview links follow the admin's roles", () => {
  it("gives an Author no link to another author's draft, which the Content Manager refuses them too", async () => {
    const othersDraft = await draftBy(superAdmin);
    await author.get(`${ARTICLES_PATH}/${othersDraft}`).expect(403);
    // Strapi's preview route answers 204 without a URL: the admin offers no preview.
    const answer = await previewOf(author, othersDraft).expect(204);
    expect(JSON.stringify(answer.body ?? {})).not.toMatch(/preview=/);
  });

  it('gives an Author a working link to their own draft, and the super admin one to any draft', async () => {
    const ownDraft = await draftBy(author);
    const own = new URL((await previewOf(author, ownDraft).expect(200)).body.data.url as string);
    const token = own.searchParams.get('preview') ?? '';
    expect(
      (
        await app
          .api()
          .get(`/api/artikel/preview/${encodeURIComponent(token)}`)
          .expect(200)
      ).body.data.id,
    ).toBe(ownDraft);
    expect((await previewOf(superAdmin, ownDraft).expect(200)).body.data.url).toMatch(/preview=/);
  });
});

describe('the request log', () => {
  it('keeps preview tokens and credentials in query strings out of its lines', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-log-'));
    const logFile = path.join(folder, 'service.log');
    const service = await startServiceProcess(path.join(folder, 'data.db'), { LOG_LEVEL: 'http', SITE_ARTICLE_URL }, { logFile });
    try {
      await fetch(`${service.baseUrl}/api/artikel/preview/c2VjcmV0.MTIz.c2lnbmF0dXJl`);
      await fetch(`${service.baseUrl}/admin/registration-info?registrationToken=rahasia-undangan`);
      await fetch(`${service.baseUrl}/api/artikel?limit=2`);
    } finally {
      await service.stop();
    }
    const log = fs.readFileSync(logFile, 'utf8');
    expect(log).toContain('GET /api/artikel/preview/[redacted]');
    expect(log).toContain('registrationToken=[redacted]');
    expect(log).toContain('GET /api/artikel?limit=2');
    expect(log).not.toMatch(/c2VjcmV0|rahasia-undangan/);
    await removeServiceDatabase(path.join(folder, 'data.db'));
    fs.rmSync(folder, { recursive: true, force: true });
  });
});
