import { createApiToken } from '../helpers/tokens';
import { isContractError } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

const body = (title: string) => ({ title, category: 'Batas', content: 'Isi singkat.' });

describe('the write rate limit behind one trusted proxy (TRUST_PROXY=1), 3 posts a minute', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startStrapi({ env: { ARTIKEL_RATE_LIMIT: '3', TRUST_PROXY: '1' } });
  });

  afterAll(async () => {
    await app.stop();
  });

  // Each post with a token of its own, so that only the address's count can refuse it.
  const post = async (forwardedFor: string, authorization?: string) =>
    app
      .api()
      .post('/api/artikel')
      .set('Authorization', authorization ?? `Bearer ${await createApiToken(app.strapi, 'full-access')}`)
      .set('X-Forwarded-For', forwardedFor)
      .send(body(`Pos ${forwardedFor}`));

  it('counts the address the proxy saw, not the leftmost one the client wrote', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 4; index += 1) statuses.push((await post(`198.51.100.${index}, 203.0.113.7`)).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
    // The same leftmost address from other clients of the proxy: each its own count.
    const others: number[] = [];
    for (let index = 0; index < 4; index += 1) others.push((await post(`198.51.100.1, 203.0.113.${20 + index}`)).status);
    expect(others).toEqual([201, 201, 201, 201]);
  });

  it('counts an IPv6 client per /64: every address of one network shares the limit, another network has its own', async () => {
    const shared = ['2001:db8:aa:1::1', '2001:db8:aa:1:ffff:ffff:ffff:fffe', '2001:0db8:00aa:0001::9', '2001:db8:aa:1::42'];
    const statuses: number[] = [];
    for (const address of shared) statuses.push((await post(`10.0.0.1, ${address}`)).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
    expect((await post('10.0.0.1, 2001:db8:aa:2::1')).status).toBe(201);
  });

  it('counts an IPv4 address written as IPv6 (::ffff:a.b.c.d) as that IPv4 address', async () => {
    const statuses: number[] = [];
    for (const address of ['192.0.2.50', '::ffff:192.0.2.50', '192.0.2.50', '::ffff:c000:232'])
      statuses.push((await post(`10.0.0.1, ${address}`)).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
  });

  it('counts failed authentications: guessing tokens from one address is refused after the limit, before any token is tried', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 5; index += 1) statuses.push((await post('10.0.0.1, 198.51.100.99', `Bearer guess-${index}`)).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const refused = await post('10.0.0.1, 198.51.100.99');
    expect(refused.status).toBe(429);
    expect(isContractError(refused)).toBe(true);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    // Another address is not affected.
    expect((await post('10.0.0.1, 198.51.100.100')).status).toBe(201);
  });
});

describe('TRUST_PROXY=2: the client is the second address from the right', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startStrapi({ env: { ARTIKEL_RATE_LIMIT: '2', TRUST_PROXY: '2' } });
  });

  afterAll(async () => {
    await app.stop();
  });

  it('takes the address two proxies saw, whatever the client wrote before it', async () => {
    const post = async (forwardedFor: string) =>
      app
        .api()
        .post('/api/artikel')
        .set('Authorization', `Bearer ${await createApiToken(app.strapi, 'full-access')}`)
        .set('X-Forwarded-For', forwardedFor)
        .send(body('Dua'));
    const statuses: number[] = [];
    for (const forwardedFor of [
      '1.1.1.1, 203.0.113.8, 10.0.0.2',
      '2.2.2.2, 203.0.113.8, 10.0.0.3',
      '203.0.113.8, 10.0.0.4',
      '1.1.1.1, 203.0.113.9, 10.0.0.2',
    ]) {
      statuses.push((await post(forwardedFor)).status);
    }
    expect(statuses).toEqual([201, 201, 429, 201]);
  });
});
