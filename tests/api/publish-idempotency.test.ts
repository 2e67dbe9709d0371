import http from 'node:http';
import { isContractError, reportFigure, storedRowCounts } from '../helpers/robustness';
import { ARTICLE_UID } from '../helpers/fixtures';
import { startStrapi, type TestApp } from '../helpers/strapi';
import { createApiToken } from '../helpers/tokens';

let app: TestApp;
let counter = 0;

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access' });
});

afterAll(async () => {
  await app.stop();
});

/** A key and an article body no other test uses. */
function fresh(fields: Record<string, string> = {}) {
  counter += 1;
  return {
    key: `run-${Date.now()}-${counter}`,
    body: { title: `Harbour lights ${counter}`, category: 'Retries', content: 'Boats at dusk.', tags: 'harbour, dusk', ...fields },
  };
}

const post = (body: object, key?: string, as = app.token) => {
  const request = app.api().post('/api/artikel').set('Authorization', `Bearer ${as}`);
  return (key === undefined ? request : request.set('Idempotency-Key', key)).send(body);
};

/** How many articles (documents) carry this title: each has exactly one draft row. */
async function articlesTitled(title: string): Promise<number> {
  return app.strapi.db.query(ARTICLE_UID).count({ where: { title, publishedAt: null } });
}

describe('POST /api/artikel with an Idempotency-Key', () => {
  it('answers a retry with the first answer again (status, Location, article) and creates nothing more', async () => {
    const { key, body } = fresh();
    const first = await post(body, key).expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await post(body, key).expect(201);
    expect(retry.headers.location).toBe(first.headers.location);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await articlesTitled(body.title)).toBe(1);
  });

  it('replays a success instead of answering 409 when the first request named its slug', async () => {
    const { key, body } = fresh();
    const withSlug = { ...body, slug: `guarded-${counter}` };
    const first = await post(withSlug, key).expect(201);
    const retry = await post(withSlug, key).expect(201);
    expect(retry.body.data.id).toBe(first.body.data.id);
    // Without the key the same body is a conflict, as before.
    await post(withSlug).expect(409);
  });

  it('treats the same JSON sent with its fields in another order as the same request', async () => {
    const { key, body } = fresh();
    const first = await post(body, key).expect(201);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const retry = await post(reordered, key).expect(201);
    expect(retry.body.data.id).toBe(first.body.data.id);
  });

  it('gives a retry whose response was lost after the commit the article that was stored, not a second one', async () => {
    const { key, body } = fresh();
    // The client sends the request and never reads the answer (n8n with a short timeout): it gives
    // up once the article is stored.
    const lost = http.request(`${await app.baseUrl()}/api/artikel`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${app.token}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
    });
    lost.on('error', () => undefined);
    lost.on('response', (response) => response.destroy());
    lost.end(JSON.stringify(body));
    const started = Date.now();
    while ((await articlesTitled(body.title)) === 0) {
      if (Date.now() - started > 30_000) throw new Error('the first request never stored its article');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    lost.destroy();
    let retry = await post(body, key);
    // Until the first request has answered, its key is still held.
    while (retry.status === 409) retry = await post(body, key);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await articlesTitled(body.title)).toBe(1);
    const stored = await app.api().get(retry.headers.location).expect(200);
    expect(stored.body.data.id).toBe(retry.body.data.id);
  });

  it('answers 422 to the same key with another body, and stores nothing', async () => {
    const { key, body } = fresh();
    const first = await post(body, key).expect(201);
    const before = await storedRowCounts(app.strapi);
    const other = await post({ ...body, content: 'Another text.' }, key).expect(422);
    expect(isContractError(other)).toBe(true);
    expect(other.body.error).toMatchObject({ status: 422, name: 'UnprocessableEntityError' });
    // A changed row sent again: the message says where its article is and that a change is a PATCH there.
    expect(other.body.error.message).toBe(
      `This Idempotency-Key was already used with a different request body (it created ${first.headers.location}); to change that article, send PATCH ${first.headers.location} with the changed fields; for a new article, use a new key`,
    );
    expect(other.body.error.details.errors[0].path).toEqual(['Idempotency-Key']);
    expect(await storedRowCounts(app.strapi)).toEqual(before);
  });

  it('refuses an empty, overlong or non-printable key with a 400 naming the header, and stores nothing', async () => {
    const { body } = fresh();
    const before = await storedRowCounts(app.strapi);
    for (const [key, problem] of [
      ['', /must not be empty/],
      ['k'.repeat(256), /at most 255/],
      ['tab\there', /printable ASCII/],
      ['café', /printable ASCII/],
    ] as const) {
      const answer = await post(body, key).expect(400);
      expect(isContractError(answer)).toBe(true);
      expect(answer.body.error.message).toMatch(problem);
      expect(answer.body.error.details.errors).toEqual([expect.objectContaining({ path: ['Idempotency-Key'] })]);
    }
    expect(await storedRowCounts(app.strapi)).toEqual(before);
    // The longest allowed key, and one sent as a Structured Fields string, are accepted.
    await post(body, 'k'.repeat(255)).expect(201);
    const quoted = fresh();
    const first = await post(quoted.body, `"${quoted.key}"`).expect(201);
    expect((await post(quoted.body, quoted.key).expect(201)).body.data.id).toBe(first.body.data.id);
  });

  it('keeps keys per API token: another token with the same key creates its own article', async () => {
    const { key, body } = fresh();
    const other = await createApiToken(app.strapi, 'full-access');
    const mine = await post(body, key).expect(201);
    const theirs = await post(body, key, other).expect(201);
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
    expect(await articlesTitled(body.title)).toBe(2);
  });

  it('does not keep a refused request: the corrected body with the same key is processed', async () => {
    const { key, body } = fresh();
    await post({ ...body, category: '' }, key).expect(400);
    const corrected = await post(body, key).expect(201);
    expect(corrected.headers['idempotent-replayed']).toBeUndefined();
  });

  it('checks the key of a dry run but keeps nothing for it', async () => {
    const { key, body } = fresh();
    await app.api().post('/api/artikel?dry_run=true').set(app.auth()).set('Idempotency-Key', '').send(body).expect(400);
    await app.api().post('/api/artikel?dry_run=true').set(app.auth()).set('Idempotency-Key', key).send(body).expect(200);
    const real = await post(body, key).expect(201);
    expect(real.headers['idempotent-replayed']).toBeUndefined();
    expect(await articlesTitled(body.title)).toBe(1);
  });

  it('processes a key again once it has expired, and purges expired keys', async () => {
    const { key, body } = fresh();
    await post(body, key).expect(201);
    const records = () => app.strapi.db.connection('artikel_idempotency_keys').where({ idempotency_key: key });
    expect(await records()).toHaveLength(1);
    await records().update({ expires_at: Date.now() - 1 });
    const again = await post(body, key).expect(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body.data.slug).toMatch(/-2$/);
    await records().update({ expires_at: Date.now() - 1 });
    await app.strapi.plugin('artikel').service('idempotency').start();
    expect(await records()).toHaveLength(0);
    app.strapi.plugin('artikel').service('idempotency').stop();
  });

  it('creates exactly one article for 50 concurrent requests with one key; each answer is that article or a 409 in progress', async () => {
    const { key, body } = fresh();
    const answers = await Promise.all(Array.from({ length: 50 }, () => post(body, key)));
    const created = answers.filter((answer) => answer.status === 201);
    const inProgress = answers.filter((answer) => answer.status === 409);
    expect(created.length + inProgress.length).toBe(50);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((answer) => answer.body.data.id)).size).toBe(1);
    for (const answer of inProgress) {
      expect(isContractError(answer)).toBe(true);
      expect(answer.body.error.message).toMatch(/still in progress/);
    }
    expect(await articlesTitled(body.title)).toBe(1);
    reportFigure(
      `[idempotency ${app.store}] 50 concurrent requests, one key`,
      `${created.length} × 201 (one article), ${inProgress.length} × 409 in progress`,
    );
  });
});
