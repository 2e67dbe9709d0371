import { productionConfigLoad } from '../helpers/production-config';
import { isContractError, storedRowCounts } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

describe('production secrets', () => {
  it('starts with strong secrets', () => {
    const loaded = productionConfigLoad({});
    expect(loaded.output).toContain('configuration loaded');
    expect(loaded.status).toBe(0);
  });

  it.each([
    [
      'APP_KEYS of four one-letter keys',
      { APP_KEYS: 'a,b,c,d' },
      /APP_KEYS \(key 1 of 4\) is shorter than 20 characters: production refuses weak secrets\. Make each with node -e/,
    ],
    ['an example value', { API_TOKEN_SALT: 'tobemodified' }, /API_TOKEN_SALT is an example value/],
    [
      'a long value of few characters',
      { ADMIN_JWT_SECRET: 'abababababababababababab' },
      /ADMIN_JWT_SECRET has fewer than 10 distinct characters/,
    ],
    ['a missing secret', { JWT_SECRET: '' }, /JWT_SECRET is not set/],
  ])('refuses to start with %s, naming the variable and how to make a good one', (_label, env, message) => {
    const loaded = productionConfigLoad(env);
    expect(loaded.status).not.toBe(0);
    expect(loaded.output).toMatch(message);
    expect(loaded.output).not.toContain('configuration loaded');
  });
});

describe('the PostgreSQL connection', () => {
  it('has no default password: without DATABASE_PASSWORD none is sent, and pg falls back to PGPASSWORD or ~/.pgpass', () => {
    const env = { DATABASE_CLIENT: 'postgres', DATABASE_PASSWORD: undefined, DATABASE_URL: undefined };
    const loaded = productionConfigLoad(env, "JSON.stringify({ password: app.config.get('database.connection.connection.password') })");
    expect(loaded.status).toBe(0);
    expect(loaded.output).toContain('{"password":""}');
  });
});

describe('a deeply nested body', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startStrapi({ token: 'full-access' });
  });

  afterAll(async () => {
    await app.stop();
  });

  it.each([
    ['with an Idempotency-Key', { 'Idempotency-Key': 'deep-1' }],
    ['without one', {}],
  ])('is a 400 that names the field %s, and stores nothing', async (_label, headers) => {
    const depth = 100_000;
    const body = `{"title":"Dalam","category":"Uji","content":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const before = await storedRowCounts(app.strapi);
    const answer = await app.api().post('/api/artikel').set(app.auth()).set(headers).set('Content-Type', 'application/json').send(body);
    expect(answer.status).toBe(400);
    expect(isContractError(answer)).toBe(true);
    expect(answer.body.error.details.errors.map((error: { path: string[] }) => error.path)).toContainEqual(['content']);
    expect(await storedRowCounts(app.strapi)).toEqual(before);
  });
});
