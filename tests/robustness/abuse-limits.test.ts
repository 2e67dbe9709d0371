import type { Response } from 'supertest';
import { createApiToken } from '../helpers/tokens';
import { isContractError, reportFigure, storedRowCounts } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

const body = (title: string) => ({ title, category: 'Limits', content: 'A short body.' });

function expectSecurityHeaders(response: Response): void {
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['x-frame-options']).toMatch(/^(SAMEORIGIN|DENY)$/);
  expect(response.headers['referrer-policy']).toBeTruthy();
}

describe('POST rate limit with the default of 60 posts per minute', () => {
  let app: TestApp;
  let otherToken: string;
  // Whether this token and address have spent their 60 posts (post-1 to post-60): done by the first
  // test or, when it has not run, by spendBudget (each test can run alone: npx jest <file> -t '<name>').
  let budgetSpent = false;

  const postNumber = (index: number) =>
    app
      .api()
      .post('/api/artikel')
      .set(app.auth())
      .send(body(`Post ${index}`));

  /** Spends the minute's 60 posts the way the first test does, unless they are spent already. */
  async function spendBudget(): Promise<void> {
    if (budgetSpent) return;
    for (let index = 1; index <= 60; index += 1) await postNumber(index).expect(201);
    budgetSpent = true;
  }

  beforeAll(async () => {
    app = await startStrapi({
      env: { ARTIKEL_RATE_LIMIT: undefined, TRUST_PROXY: undefined, CORS_ORIGINS: undefined },
      token: 'full-access',
    });
    otherToken = await createApiToken(app.strapi, 'full-access');
  });

  afterAll(async () => {
    await app.stop();
  });

  it('accepts 60 posts in a minute, refuses the 61st with a 429 and Retry-After, and stores nothing for it', async () => {
    const statuses: number[] = [];
    for (let index = 1; index <= 60; index += 1) statuses.push((await postNumber(index)).status);
    budgetSpent = true;
    expect(statuses.filter((status) => status === 201)).toHaveLength(60);

    const before = await storedRowCounts(app.strapi);
    const refused = await app.api().post('/api/artikel').set(app.auth()).send(body('Post 61')).expect(429);
    expect(isContractError(refused)).toBe(true);
    expect(refused.body.error.name).toBe('RateLimitError');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    expect(await storedRowCounts(app.strapi)).toEqual(before);
    expectSecurityHeaders(refused);
    reportFigure('rate limit (default)', `60 posts accepted, post 61 answered 429 with Retry-After ${retryAfter} s`);
  });

  it('keeps refusing when the client sends a spoofed X-Forwarded-For and no proxy is trusted', async () => {
    await spendBudget();
    for (const address of ['203.0.113.7', '198.51.100.1, 10.0.0.1', '::1']) {
      await app.api().post('/api/artikel').set(app.auth()).set('X-Forwarded-For', address).send(body('Spoofed')).expect(429);
    }
  });

  it('counts per client address too, so a second token from the same address is refused', async () => {
    await spendBudget();
    await app.api().post('/api/artikel').set('Authorization', `Bearer ${otherToken}`).send(body('Other token')).expect(429);
  });

  it('leaves reads unaffected', async () => {
    // Reads while posts are refused, post-1 among them.
    await spendBudget();
    for (let index = 0; index < 20; index += 1) await app.api().get('/api/artikel').expect(200);
    await app.api().get('/api/artikel/post-1').expect(200);
  });
});

describe('POST rate limit behind a trusted proxy, set to 2 per minute', () => {
  let app: TestApp;
  let first: string;
  let second: string;

  beforeAll(async () => {
    app = await startStrapi({
      env: { ARTIKEL_RATE_LIMIT: '2', TRUST_PROXY: 'true', CORS_ORIGINS: 'https://studio.example, https://admin.studio.example/' },
    });
    first = await createApiToken(app.strapi, 'full-access');
    second = await createApiToken(app.strapi, 'full-access');
  });

  afterAll(async () => {
    await app.stop();
  });

  const post = (token: string, address: string, title: string) =>
    app.api().post('/api/artikel').set('Authorization', `Bearer ${token}`).set('X-Forwarded-For', address).send(body(title));

  it('limits each token and each forwarded client address separately', async () => {
    await post(first, '203.0.113.1', 'One').expect(201);
    await post(first, '203.0.113.1', 'Two').expect(201);
    await post(first, '203.0.113.1', 'Three').expect(429);
    // A new address does not reset the token's count.
    await post(first, '203.0.113.2', 'Four').expect(429);
    // A new token from a new address is its own client.
    await post(second, '203.0.113.3', 'Five').expect(201);
    // The first address is used up, whatever the token.
    await post(second, '203.0.113.1', 'Six').expect(429);
  });

  it('counts failed authentications on any spelling of the path the router accepts (/API/artikel, /api/artikel/) against the address', async () => {
    const guess = (path: string) =>
      app.api().post(path).set('Authorization', 'Bearer not-a-token').set('X-Forwarded-For', '203.0.113.99').send(body('Guess'));
    expect((await guess('/API/artikel')).status).toBe(401);
    expect((await guess('/api/artikel/')).status).toBe(401);
    expect((await guess('/Api/Artikel')).status).toBe(429);
    expect((await guess('/api/artikel')).status).toBe(429);
  });

  it('lets the configured origins preflight and send a post, and no other origin', async () => {
    const allowed = await app
      .api()
      .options('/api/artikel')
      .set('Origin', 'https://studio.example')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization,content-type');
    expect(allowed.status).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://studio.example');
    expect(allowed.headers['access-control-allow-methods']).toContain('POST');
    expect(allowed.headers['access-control-allow-headers']).toMatch(/Authorization/i);
    const trailingSlashConfigured = await app
      .api()
      .options('/api/artikel')
      .set('Origin', 'https://admin.studio.example')
      .set('Access-Control-Request-Method', 'POST');
    expect(trailingSlashConfigured.headers['access-control-allow-origin']).toBe('https://admin.studio.example');

    const other = await app
      .api()
      .options('/api/artikel')
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'POST');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('limits switched off, CORS and security headers by default', () => {
  let app: TestApp;
  // The first of the unlimited posts: posted by its test or, when that test has not run, by
  // firstUnlimitedSlug (each test can run alone: npx jest <file> -t '<name>').
  let unlimitedSlug: string | undefined;

  const postUnlimited = (index: number) =>
    app
      .api()
      .post('/api/artikel')
      .set(app.auth())
      .send(body(`Unlimited ${index}`));

  /** The slug of the post "Unlimited 1". */
  async function firstUnlimitedSlug(): Promise<string> {
    if (unlimitedSlug === undefined) unlimitedSlug = (await postUnlimited(1).expect(201)).body.data.slug as string;
    return unlimitedSlug;
  }

  beforeAll(async () => {
    app = await startStrapi({ env: { ARTIKEL_RATE_LIMIT: '0', TRUST_PROXY: undefined, CORS_ORIGINS: undefined }, token: 'full-access' });
  });

  afterAll(async () => {
    await app.stop();
  });

  it('accepts more than 60 posts a minute when ARTIKEL_RATE_LIMIT is 0', async () => {
    let created = 0;
    for (let index = 1; index <= 65; index += 1) {
      const response = await postUnlimited(index);
      if (response.status === 201) created += 1;
      if (index === 1 && response.status === 201) unlimitedSlug = response.body.data.slug;
    }
    expect(created).toBe(65);
  });

  it('opens public reads to every origin without credentials', async () => {
    const read = await app.api().get('/api/artikel').set('Origin', 'https://anywhere.example').expect(200);
    expect(read.headers['access-control-allow-origin']).toMatch(/^(\*|https:\/\/anywhere\.example)$/);
    expect(read.headers['access-control-allow-credentials']).toBeUndefined();
    const preflight = await app
      .api()
      .options('/api/artikel/latest')
      .set('Origin', 'https://anywhere.example')
      .set('Access-Control-Request-Method', 'GET');
    expect(preflight.headers['access-control-allow-origin']).toMatch(/^(\*|https:\/\/anywhere\.example)$/);
  });

  it('closes writes to every other origin unless CORS_ORIGINS lists it', async () => {
    const preflight = await app
      .api()
      .options('/api/artikel')
      .set('Origin', 'https://anywhere.example')
      .set('Access-Control-Request-Method', 'POST');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const post = await app.api().post('/api/artikel').set('Origin', 'https://anywhere.example').set(app.auth()).send(body('Cross origin'));
    expect(post.headers['access-control-allow-origin']).toBeUndefined();
    const adminRead = await app.api().get('/admin/init').set('Origin', 'https://anywhere.example');
    expect(adminRead.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('sends nosniff, frame options and a referrer policy on every kind of response', async () => {
    expect(await firstUnlimitedSlug()).toBe('unlimited-1');
    const responses = [
      await app.api().get('/api/artikel'),
      await app.api().get('/api/artikel/categories'),
      await app.api().get('/api/artikel/latest'),
      await app.api().get('/api/artikel/unlimited-1'),
      await app.api().get('/api/artikel/no-such-article'),
      await app.api().get('/api/artikel?limit=0'),
      await app.api().post('/api/artikel').send(body('No token')),
      await app.api().post('/api/artikel').set(app.auth()).send({}),
      await app.api().post('/api/artikel').set(app.auth()).set('Content-Type', 'application/json').send('{"title":'),
      await app.api().options('/api/artikel').set('Origin', 'https://anywhere.example').set('Access-Control-Request-Method', 'POST'),
      await app.api().get('/no/such/path'),
    ];
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 404, 400, 401, 400, 400, 200, 404]);
    responses.forEach(expectSecurityHeaders);
    reportFigure(
      'security headers',
      `nosniff, frame options and referrer policy on ${responses.length} of ${responses.length} response kinds`,
    );
  });
});
