// @same-on-every-store: the API reference is a static document the service serves (not run by test:postgres, see jest.config.js)
import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import { startStrapi, type TestApp } from '../helpers/strapi';

// What the service must send: the Redoc build npm installed, byte for byte.
const REDOC = fs.readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'));
const SCRIPT = '/api/artikel/docs/redoc.standalone.js';

let app: TestApp;
let base: string;

beforeAll(async () => {
  app = await startStrapi();
  base = await app.baseUrl();
});

afterAll(async () => {
  await app.stop();
});

/** The raw answer (no decompression), as a CDN or a browser's network panel sees it. */
function raw(path: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${path}`, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe('the API reference page', () => {
  it('is an HTML page of Redoc reading the OpenAPI document beside it, with no address outside the service', async () => {
    const response = await fetch(`${base}/api/artikel/docs.html`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    expect(html).toContain('<redoc spec-url="openapi.json"');
    expect(html).toContain('<script src="docs/redoc.standalone.js"></script>');
    expect(html).not.toMatch(/https?:\/\//);
    // The page's relative addresses resolve to the two routes that serve them.
    expect((await fetch(new URL('openapi.json', `${base}/api/artikel/docs.html`))).status).toBe(200);
    expect((await fetch(new URL('docs/redoc.standalone.js', `${base}/api/artikel/docs.html`))).status).toBe(200);
  });

  it('answers a revalidation with 304 and a query parameter with the contract 400', async () => {
    const first = await app.api().get('/api/artikel/docs.html').expect(200);
    await app
      .api()
      .get('/api/artikel/docs.html')
      .set('If-None-Match', first.headers.etag as string)
      .expect(304);
    const refused = await app.api().get('/api/artikel/docs.html?x=1').expect(400);
    expect(refused.body.error.message).toMatch(/x/);
  });
});

describe("the reference page's script", () => {
  it.each([
    ['br', (body: Buffer) => zlib.brotliDecompressSync(body)],
    ['gzip', (body: Buffer) => zlib.gunzipSync(body)],
    ['identity', (body: Buffer) => body],
  ])('is Redoc as installed, sent %s-encoded when the client asks for it', async (encoding, decode) => {
    const response = await raw(SCRIPT, { 'Accept-Encoding': encoding });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(response.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
    expect(response.headers.vary).toMatch(/Accept-Encoding/);
    expect(response.headers['cache-control']).toBe('public, max-age=604800');
    const body = response.body;
    if (encoding !== 'identity') expect(body.length).toBeLessThan(REDOC.length / 3);
    expect(decode(body).equals(REDOC)).toBe(true);
  });

  it('reaches fetch() decompressed, and a revalidation with its ETag is a 304 without a body', async () => {
    const response = await fetch(`${base}${SCRIPT}`);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(REDOC)).toBe(true);
    const etag = response.headers.get('etag');
    expect(etag).toMatch(/^"redoc-\d+\.\d+\.\d+-(br|gzip)"$/);
    // A cache's revalidation (fetch() itself marks a conditional request no-cache: issue 32).
    const again = await raw(SCRIPT, {
      'Accept-Encoding': response.headers.get('content-encoding') as string,
      'If-None-Match': etag as string,
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });
});
