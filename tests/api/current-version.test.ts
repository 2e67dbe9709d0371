import { startStrapi, type TestApp } from '../helpers/strapi';
import { createApiToken } from '../helpers/tokens';

/**
 * GET /api/artikel/{slug}/current: what a workflow reads before a PATCH, a draft included, with the
 * ETag its If-Match takes, for a token that may update; no view counted.
 */
let app: TestApp;
let updater: string;
let creator: string;

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: true });
  updater = await createApiToken(app.strapi, 'custom', ['plugin::artikel.artikel.update']);
  creator = await createApiToken(app.strapi, 'custom', ['plugin::artikel.artikel.create']);
});

afterAll(() => app?.stop());

it('gives a token that may update a draft as it stands with its ETag, which a PATCH then takes, counting no view', async () => {
  await app
    .api()
    .post('/api/artikel')
    .set(app.auth())
    .send({ title: 'Draf jadwal', category: 'Studio', content: 'Belum.', status: 'draft' })
    .expect(201);
  const current = await app.api().get('/api/artikel/draf-jadwal/current').set('Authorization', `Bearer ${updater}`).expect(200);
  expect(current.body.data).toMatchObject({ slug: 'draf-jadwal', status: 'draft', views: 0 });
  expect(current.headers['cache-control']).toBe('private, no-store');
  const etag = String(current.headers.etag);
  expect(etag).toMatch(/^"/);
  await app.api().get('/api/artikel/draf-jadwal').expect(404);
  await app
    .api()
    .patch('/api/artikel/draf-jadwal')
    .set('Authorization', `Bearer ${updater}`)
    .set('If-Match', etag)
    .send({ title: 'Draf jadwal baru' })
    .expect(200);
  const again = await app.api().get('/api/artikel/draf-jadwal/current').set('Authorization', `Bearer ${updater}`).expect(200);
  expect(again.body.data.views).toBe(0);
  expect(again.headers.etag).not.toBe(etag);
});

it('refuses a token that may only create, naming the permission, and a request without a token', async () => {
  await app.api().post('/api/artikel').set(app.auth()).send({ title: 'Hanya buat', category: 'Studio', content: 'x' }).expect(201);
  const refused = await app.api().get('/api/artikel/hanya-buat/current').set('Authorization', `Bearer ${creator}`).expect(403);
  expect(refused.body.error.message).toMatch(/artikel\.update/);
  await app.api().get('/api/artikel/hanya-buat/current').expect(401);
});
