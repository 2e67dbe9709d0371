// @same-on-every-store: the headers of every answer are set before any read (not run by test:postgres, see jest.config.js)
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import Koa from 'koa';
import supertest from 'supertest';
import { createArticle } from '../helpers/fixtures';
import { startStrapi, type TestApp } from '../helpers/strapi';

// Every header helmet may set or leave out.
const SECURITY_HEADERS = [
  'content-security-policy',
  'cross-origin-embedder-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

type Method = 'get' | 'head' | 'post' | 'delete';
type HeaderValue = string | string[] | undefined;

const securityHeadersOf = (headers: Record<string, HeaderValue>): Record<string, HeaderValue> =>
  Object.fromEntries(SECURITY_HEADERS.map((name) => [name, headers[name]]));

let app: TestApp;
let strapiSecurityAlone: supertest.Agent;

beforeAll(async () => {
  app = await startStrapi();
  await createArticle(app.strapi, { title: 'Harbour at dawn', slug: 'harbour-at-dawn' });
  // Strapi's own strapi::security by itself (the app's registry holds it extended), built from the
  // config the app's middleware list gives it: none of the app's own in this setting, but the
  // frame-src Strapi's preview adds for its frame. Loaded by its file: @strapi/core exports no deep paths.
  const securityFile = path.join(path.dirname(require.resolve('@strapi/core/package.json')), 'dist/middlewares/security.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a file by its path, which an import cannot name
  const factory = (require(securityFile) as { security: (config: object, context: { strapi: Core.Strapi }) => Koa.Middleware }).security;
  const alone = new Koa();
  const configured = (app.strapi.config.get('middlewares') as Array<string | { name?: string; config?: object }>).find(
    (entry): entry is { name: string; config?: object } => typeof entry === 'object' && entry.name === 'strapi::security',
  );
  alone.use(factory(configured?.config ?? {}, { strapi: app.strapi }));
  alone.use((ctx) => {
    ctx.body = 'ok';
  });
  strapiSecurityAlone = supertest.agent(alone.callback());
});

afterAll(async () => {
  await app.stop();
});

describe('security headers', () => {
  it.each<[Method, string]>([
    ['get', '/api/artikel'],
    ['get', '/api/artikel/harbour-at-dawn'],
    ['head', '/api/artikel/latest'],
    ['get', '/api/artikel/no-such-article'],
    ['post', '/api/artikel'],
    ['delete', '/api/artikel/harbour-at-dawn'],
    ['get', '/admin/init'],
    ['post', '/admin/login'],
    ['get', '/documentation'],
  ])('%s %s carries exactly the headers strapi::security gives it', async (method, path) => {
    const served = await app.api()[method](path);
    const expected = await strapiSecurityAlone[method](path);
    expect(securityHeadersOf(served.headers)).toEqual(securityHeadersOf(expected.headers));
    // Not a comparison of two empty sets: every answer has its policy.
    expect(served.headers['content-security-policy']).toMatch(/default-src 'self'/);
  });
});

describe('uploaded files', () => {
  it('carry a policy of their own that forbids script, in a sandbox, besides every other header strapi::security gives', async () => {
    const served = await app.api().get('/uploads/missing.jpg');
    const expected = await strapiSecurityAlone.get('/uploads/missing.jpg');
    const { 'content-security-policy': policy, ...others } = securityHeadersOf(served.headers);
    const { 'content-security-policy': _strapiPolicy, ...expectedOthers } = securityHeadersOf(expected.headers);
    expect(others).toEqual(expectedOthers);
    expect(policy).toBe("default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox");
  });
});

describe('bodies of requests', () => {
  it('answers a GET that carries a JSON body as one without it', async () => {
    const withBody = await app
      .api()
      .get('/api/artikel/harbour-at-dawn')
      .set('Content-Type', 'application/json')
      .send('{"title":"ignored"}');
    expect(withBody.status).toBe(200);
    expect(withBody.body.data).toMatchObject({ slug: 'harbour-at-dawn', title: 'Harbour at dawn' });
  });
});
