import { isContractError } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';
import { createApiToken } from '../helpers/tokens';

/**
 * The mistakes a newcomer makes in their first ten minutes, each answered with what to do about it,
 * in the contract's error shape, changing nothing. Asked with Node's own fetch(), as a script would.
 */
let app: TestApp;
let base: string;
let createOnly: string;

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: { name: 'Pernikahan', slug: 'pernikahan' } });
  base = await app.baseUrl();
  createOnly = await createApiToken(app.strapi, 'custom', ['plugin::artikel.artikel.create']);
});

afterAll(async () => {
  await app?.stop();
});

interface Answer {
  status: number;
  headers: Headers;
  body: { data: unknown; error: { status: number; name: string; message: string; details: Record<string, unknown> } };
}

async function send(method: string, path: string, options: { token?: string; body?: string; type?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
  if (options.type !== undefined) headers['Content-Type'] = options.type;
  const response = await fetch(`${base}${path}`, { method, headers, body: options.body });
  const answer = { status: response.status, headers: response.headers, body: (await response.json()) as Answer['body'] };
  expect(isContractError(answer)).toBe(true);
  return answer;
}

const article = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({ title: 'Sesi foto di pantai', category: 'Pernikahan', content: 'Ombak dan senja.', ...fields });

describe('errors that teach the fix', () => {
  it('answers a write sent as a form (curl -d) with a 415 naming Content-Type, and stores nothing', async () => {
    const answer = await send('POST', '/api/artikel', {
      token: app.token,
      body: article({ title: 'Tanpa JSON' }),
      type: 'application/x-www-form-urlencoded',
    });
    expect(answer.status).toBe(415);
    expect(answer.body.error.message).toContain('Content-Type: application/json');
    expect((await fetch(`${base}/api/artikel/tanpa-json`)).status).toBe(404);
  });

  it('answers a token without the action with a 403 naming the permission and how to get a token that has it', async () => {
    const created = await fetch(`${base}/api/artikel`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${createOnly}`, 'Content-Type': 'application/json' },
      body: article({ title: 'Milik token buat saja' }),
    });
    expect(created.status).toBe(201);
    const slug = ((await created.json()) as { data: { slug: string } }).data.slug;
    const patch = await send('PATCH', `/api/artikel/${slug}`, {
      token: createOnly,
      body: JSON.stringify({ title: 'Diubah' }),
      type: 'application/json',
    });
    expect(patch.status).toBe(403);
    expect(patch.body.error.message).toMatch(/may not update articles.*artikel\.update.*ARTIKEL_TOKEN_ACTIONS=update npm run -s token/);
    const remove = await send('DELETE', `/api/artikel/${slug}`, { token: createOnly });
    expect(remove.body.error.message).toMatch(/may not delete articles.*artikel\.delete/);
    expect((await fetch(`${base}/api/artikel/${slug}`)).status).toBe(200);
  });

  it('suggests kategori for category in a query, and category for kategori in a body', async () => {
    const list = await send('GET', '/api/artikel?category=pernikahan');
    expect(list.status).toBe(400);
    expect(list.body.error.message).toMatch(/category is not an allowed field: did you mean kategori\?/);
    const post = await send('POST', '/api/artikel', {
      token: app.token,
      body: JSON.stringify({ title: 'Salah nama', kategori: 'Pernikahan', content: 'x' }),
      type: 'application/json',
    });
    expect(post.status).toBe(400);
    expect(post.body.error.message).toMatch(/kategori is not an allowed field: did you mean category\?/);
    const typo = await send('GET', '/api/artikel?limt=5');
    expect(typo.body.error.message).toMatch(/limt is not an allowed field: did you mean limit\?/);
  });

  it('shows the comma-separated form when tags are sent as a list', async () => {
    const answer = await send('POST', '/api/artikel', {
      token: app.token,
      body: article({ title: 'Tag daftar', tags: ['pantai', 'senja'] }),
      type: 'application/json',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain('tags must be one text of comma-separated tags, such as "harbour, golden hour"');
  });

  it('says a slug is held by an article in the trash, and how to restore or purge it', async () => {
    const first = await fetch(`${base}/api/artikel`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${app.token}`, 'Content-Type': 'application/json' },
      body: article({ title: 'Akan dihapus', slug: 'akan-dihapus' }),
    });
    expect(first.status).toBe(201);
    const id = ((await first.json()) as { data: { id: string } }).data.id;
    expect(
      (await fetch(`${base}/api/artikel/akan-dihapus`, { method: 'DELETE', headers: { Authorization: `Bearer ${app.token}` } })).status,
    ).toBe(204);
    const again = await send('POST', '/api/artikel', {
      token: app.token,
      body: article({ title: 'Lagi', slug: 'akan-dihapus' }),
      type: 'application/json',
    });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain(`deleted article waiting in the trash (document id ${id})`);
    expect(again.body.error.message).toMatch(/restore it .*purge it/);
  });

  it('answers a method the path does not take with a JSON 405 and Allow', async () => {
    const answer = await send('PUT', '/api/artikel/sesi-foto', { token: app.token, body: article(), type: 'application/json' });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toMatch(/GET/);
    expect(answer.body.error.message).toMatch(/PUT is not allowed here: this path takes .*PATCH/);
  });
});
