import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { registerEditor } from '../helpers/admin';
import { reportFigure } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

const ARTICLE = 'api::article.article';
const CM = 'plugin::content-manager.explorer';
const ARTIKEL_TOOLS = [
  'artikel_categories',
  'artikel_create',
  'artikel_delete',
  'artikel_get',
  'artikel_latest',
  'artikel_restore',
  'artikel_revisions',
  'artikel_search',
  'artikel_update',
];

let app: TestApp;
let base: string;
const tokens: Record<'full' | 'reader' | 'author' | 'none', string> = { full: '', reader: '', author: '', none: '' };
const clients: Client[] = [];
let counter = 0;

interface AdminTokenService {
  create: (attributes: object, owner: object) => Promise<{ id: number | string; accessKey: string }>;
  revoke: (id: number | string) => Promise<unknown>;
}

/** An admin token (Settings → Admin tokens) of the first administrator, holding these Content Manager actions on Article. */
async function adminToken(actions: string[]): Promise<string> {
  return (await adminTokenWithId(actions)).accessKey;
}

async function adminTokenWithId(actions: string[]): Promise<{ id: number | string; accessKey: string }> {
  counter += 1;
  const owner = await app.strapi.db.query('admin::user').findOne({ where: {}, populate: ['roles'] });
  const service = app.strapi.service('admin::api-token-admin') as unknown as AdminTokenService;
  const token = await service.create(
    {
      kind: 'admin',
      name: `mcp-${counter}`,
      description: '',
      lifespan: null,
      adminPermissions: actions.map((action) => ({ action: `${CM}.${action}`, subject: ARTICLE })),
    },
    owner,
  );
  return token;
}

/** A real MCP client over Streamable HTTP, as Claude, Cursor or n8n connect. */
async function connect(token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'artikel-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

interface ToolAnswer {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: { data: Record<string, unknown> & { slug?: string }; meta?: Record<string, unknown> };
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as unknown as ToolAnswer;
const textOf = (answer: ToolAnswer) => answer.content.map((part) => part.text ?? '').join('\n');

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: { name: 'Studio', slug: 'studio' } });
  base = await app.baseUrl();
  await registerEditor(app);
  tokens.full = await adminToken(['read', 'create', 'update', 'delete', 'publish']);
  tokens.reader = await adminToken(['read']);
  tokens.author = await adminToken(['read', 'create', 'update']);
  tokens.none = await adminToken([]);
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await app?.stop();
});

const body = (fields: Record<string, unknown> = {}) => {
  counter += 1;
  return {
    title: `Kite festival ${counter}`,
    category: 'Studio',
    content: `Kites over the beach ${counter}.`,
    tags: 'Beach, Kites',
    ...fields,
  };
};

describe('the article tools on Strapi’s MCP server', () => {
  it('lists the nine article tools to a token that may do everything, the five reading ones to a reader, none to a token without permissions', async () => {
    const names = async (token: string) =>
      (await (await connect(token)).listTools()).tools
        .map((tool) => tool.name)
        .filter((name) => name.startsWith('artikel_'))
        .sort();
    expect(await names(tokens.full)).toEqual(ARTIKEL_TOOLS);
    expect(await names(tokens.reader)).toEqual([
      'artikel_categories',
      'artikel_get',
      'artikel_latest',
      'artikel_revisions',
      'artikel_search',
    ]);
    expect(await names(tokens.none)).toEqual([]);
  });

  it('describes each input with the REST route’s fields, artikel_create’s required ones in the schema’s required', async () => {
    const { tools } = await (await connect(tokens.full)).listTools();
    const create = tools.find((tool) => tool.name === 'artikel_create');
    expect([...(create?.inputSchema.required ?? [])].sort()).toEqual(['category', 'content', 'title']);
    expect(Object.keys(create?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['summary', 'tags', 'status', 'publish_at', 'idempotency_key', 'dry_run']),
    );
  });

  it('refuses a connection with an unknown token, and with a token once it is revoked', async () => {
    await expect(connect('not-a-token')).rejects.toThrow();
    const token = await adminTokenWithId(['read']);
    expect((await (await connect(token.accessKey)).listTools()).tools.length).toBeGreaterThan(0);
    await (app.strapi.service('admin::api-token-admin') as unknown as AdminTokenService).revoke(token.id);
    await expect(connect(token.accessKey)).rejects.toThrow();
  });

  it('creates an article whose structuredContent is the REST answer’s data, and its text is the article as Markdown', async () => {
    const client = await connect(tokens.full);
    const started = performance.now();
    const created = await call(client, 'artikel_create', body());
    const mcpMs = performance.now() - started;
    expect(created.isError).toBeFalsy();
    const data = created.structuredContent?.data ?? {};
    expect(textOf(created)).toContain(`# ${String(data.title)}`);
    const rest = (
      await app
        .api()
        .get(`/api/artikel/${String(data.slug)}`)
        .expect(200)
    ).body.data;
    for (const field of [
      'id',
      'title',
      'slug',
      'summary',
      'tags',
      'category',
      'content',
      'content_html',
      'status',
      'published_at',
      'author',
    ])
      expect(data[field]).toEqual(rest[field]);

    const restStarted = performance.now();
    await app.api().post('/api/artikel').set(app.auth()).send(body()).expect(201);
    const restMs = performance.now() - restStarted;
    reportFigure('create round trip', `MCP artikel_create ${mcpMs.toFixed(1)} ms, REST POST ${restMs.toFixed(1)} ms`);
  });

  it('searches like the REST list: the same articles and pagination', async () => {
    const client = await connect(tokens.reader);
    await call(await connect(tokens.full), 'artikel_create', body({ title: 'Lantern parade at dusk' }));
    const started = performance.now();
    const found = await call(client, 'artikel_search', { q: 'lantern', limit: 5 });
    const mcpMs = performance.now() - started;
    const restStarted = performance.now();
    const rest = (await app.api().get('/api/artikel?q=lantern&limit=5').expect(200)).body;
    const restMs = performance.now() - restStarted;
    expect(found.isError).toBeFalsy();
    expect(found.structuredContent?.data).toEqual(rest.data);
    expect(found.structuredContent?.meta).toEqual({ ...rest.meta, next_cursor: null });
    reportFigure('search round trip', `MCP artikel_search ${mcpMs.toFixed(1)} ms, REST GET ${restMs.toFixed(1)} ms`);
  });

  it('ranks by relevance with highlights and pages by meta.next_page, and suggests a spelling when nothing is found', async () => {
    const writer = await connect(tokens.full);
    await call(writer, 'artikel_create', body({ title: 'Macro flowers', content: 'Kelopak bunga dari dekat.' }));
    await call(writer, 'artikel_create', body({ title: 'Garden notes', content: 'A macro lens, a macro subject.' }));
    const client = await connect(tokens.reader);
    const first = await call(client, 'artikel_search', { q: 'macro', sort: 'relevance', limit: 1 });
    expect(first.isError).toBeFalsy();
    const rest = (await app.api().get('/api/artikel?q=macro&sort=relevance&limit=1').expect(200)).body;
    expect(first.structuredContent?.data).toEqual(rest.data);
    const [hit] = rest.data as Array<{ title: string; highlight: { title: string } }>;
    expect(hit.highlight.title).toBe('<mark>Macro</mark> flowers');
    expect(first.structuredContent?.meta).toEqual({ ...rest.meta, next_cursor: null, next_page: 2 });
    const second = await call(client, 'artikel_search', { q: 'macro', sort: 'relevance', limit: 1, page: 2 });
    expect((second.structuredContent?.data as unknown as Array<{ title: string }>)[0].title).toBe('Garden notes');
    const misspelt = await call(client, 'artikel_search', { q: 'macri' });
    expect((misspelt.structuredContent?.meta as { suggestion: string | null }).suggestion).toBe('macro');
    expect(textOf(misspelt)).toContain('Did you mean: macro');
  });

  it('walks a search page by page with meta.next_cursor, seeing each article once even while one is published', async () => {
    const writer = await connect(tokens.full);
    for (const n of [1, 2, 3, 4, 5]) await call(writer, 'artikel_create', body({ title: `Cursor walk ${n}`, tags: 'cursor-walk' }));
    const client = await connect(tokens.reader);
    const seen: string[] = [];
    let args: Record<string, unknown> = { tag: 'cursor-walk', limit: 2 };
    for (let page = 1; page <= 10; page += 1) {
      const answer = await call(client, 'artikel_search', args);
      expect(answer.isError).toBeFalsy();
      seen.push(...(answer.structuredContent?.data as unknown as Array<{ slug: string }>).map((article) => article.slug));
      // A new article published mid-walk is above the walk: it neither shifts the pages nor shows twice.
      if (page === 1) await call(writer, 'artikel_create', body({ title: 'Cursor walk late', tags: 'cursor-walk' }));
      const next = answer.structuredContent?.meta?.next_cursor;
      if (next === null) break;
      expect(typeof next).toBe('string');
      args = { tag: 'cursor-walk', limit: 2, cursor: next };
    }
    expect(seen).toEqual(['cursor-walk-5', 'cursor-walk-4', 'cursor-walk-3', 'cursor-walk-2', 'cursor-walk-1']);
    const wrongQuery = await call(client, 'artikel_search', { tag: 'other', limit: 2, cursor: args.cursor });
    expect(wrongQuery.isError).toBe(true);
    expect(textOf(wrongQuery)).toContain('cursor belongs to another query');
  });

  it('refuses bad input with a tool error naming every refused field, and stores nothing', async () => {
    const client = await connect(tokens.full);
    const before = (await app.api().get('/api/artikel?limit=1').expect(200)).body.meta.pagination.total;
    // A missing required field is refused by the input schema, which requires it.
    const untitled = await call(client, 'artikel_create', { category: 'Studio', content: 'No title.' });
    expect(untitled.isError).toBe(true);
    expect(textOf(untitled)).toMatch(/title is required/);
    // Every rule of the REST validation, each refused field named.
    const refused = await call(client, 'artikel_create', {
      title: 'x'.repeat(300),
      category: 'Studio',
      content: 'A bad cover.',
      cover_image_url: 'javascript:alert(1)',
    });
    expect(refused.isError).toBe(true);
    // In the API's English, though the token's owner reads the admin in Indonesian: an agent is not an editor's screen.
    expect(textOf(refused)).toMatch(/title must be at most 255 characters/);
    expect(textOf(refused)).toMatch(/cover_image_url must be an absolute https URL/);
    expect((await app.api().get('/api/artikel?limit=1').expect(200)).body.meta.pagination.total).toBe(before);
  });

  it('refuses wrongly typed input with a tool error in the REST API’s words, not the schema checker’s', async () => {
    const client = await connect(tokens.full);
    const before = (await app.api().get('/api/artikel?limit=1').expect(200)).body.meta.pagination.total;
    const wrongTypes = await call(client, 'artikel_create', { title: 42, content: ['a'], category: 'Studio', status: 'live' });
    expect(wrongTypes.isError).toBe(true);
    const text = textOf(wrongTypes);
    expect(text).toMatch(/title must be a string/);
    expect(text).toMatch(/content must be a string/);
    expect(text).toMatch(/status must be/);
    expect(text).not.toMatch(/invalid_type|expected|received|`|final value/i);
    const search = await call(client, 'artikel_search', { limit: 'many', tag: ['a', 'b'] });
    expect(search.isError).toBe(true);
    expect(textOf(search)).not.toMatch(/invalid_type|expected|received|`|final value/i);
    expect((await app.api().get('/api/artikel?limit=1').expect(200)).body.meta.pagination.total).toBe(before);
  });

  it('replays a retried create with the same idempotency_key, creating one article', async () => {
    const client = await connect(tokens.full);
    const input = { ...body(), idempotency_key: `sheet-row-${counter}` };
    const first = await call(client, 'artikel_create', input);
    const again = await call(client, 'artikel_create', input);
    expect(again.structuredContent?.data.id).toBe(first.structuredContent?.data.id);
    expect(again.structuredContent?.meta?.idempotent_replayed).toBe(true);
    const list = (
      await app
        .api()
        .get(`/api/artikel?q=${encodeURIComponent(String(input.title))}`)
        .expect(200)
    ).body;
    expect(list.meta.pagination.total).toBe(1);
  });

  it('answers a dry run with the article as it would be, storing nothing', async () => {
    const client = await connect(tokens.full);
    const input = body();
    const dry = await call(client, 'artikel_create', { ...input, dry_run: true });
    expect(dry.structuredContent?.meta?.dry_run).toBe(true);
    await app
      .api()
      .get(`/api/artikel/${String(dry.structuredContent?.data.slug)}`)
      .expect(404);
  });

  it('gets a draft by its slug without counting a view, and changes and deletes it', async () => {
    const client = await connect(tokens.full);
    const draft = await call(client, 'artikel_create', body({ status: 'draft' }));
    const slug = String(draft.structuredContent?.data.slug);
    const got = await call(client, 'artikel_get', { slug });
    expect(got.structuredContent?.data).toMatchObject({ slug, status: 'draft', views: 0 });
    const changed = await call(client, 'artikel_update', {
      slug,
      status: 'published',
      if_match: String(got.structuredContent?.meta?.etag),
    });
    expect(changed.structuredContent?.data).toMatchObject({ slug, status: 'published' });
    expect((await call(client, 'artikel_get', { slug })).structuredContent?.data.views).toBe(0);
    const stale = await call(client, 'artikel_update', { slug, title: 'Too late', if_match: String(got.structuredContent?.meta?.etag) });
    expect(stale.isError).toBe(true);
    expect(textOf(stale)).toMatch(/changed since/);
    expect((await call(client, 'artikel_delete', { slug })).isError).toBeFalsy();
    await app.api().get(`/api/artikel/${slug}`).expect(404);
  });

  it('lists an article’s revisions with the agent’s owner as their author, and restores one', async () => {
    const client = await connect(tokens.full);
    const created = await call(client, 'artikel_create', body());
    const slug = String(created.structuredContent?.data.slug);
    const original = created.structuredContent?.data.title;
    await call(client, 'artikel_update', { slug, title: 'An agent’s rewrite' });
    const listed = await call(client, 'artikel_revisions', { slug });
    const entries = listed.structuredContent?.data as unknown as Array<{ number: number; action: string; actor: Record<string, unknown> }>;
    expect(entries.map((entry) => [entry.number, entry.action])).toEqual([
      [2, 'update'],
      [1, 'create'],
    ]);
    expect(entries[0].actor).toEqual({ kind: 'mcp', id: expect.any(String), name: 'Eda Editor' });
    expect(textOf(listed)).toMatch(/#2 update .* by Eda Editor \(mcp\)/);
    const first = await call(client, 'artikel_revisions', { slug, number: 1 });
    expect((first.structuredContent?.data as unknown as { article: { title: string } }).article.title).toBe(original);

    const restored = await call(client, 'artikel_restore', { slug, number: 1 });
    expect(restored.isError).toBeFalsy();
    expect(restored.structuredContent?.data).toMatchObject({ slug, title: original, status: 'published' });
    expect((await app.api().get(`/api/artikel/${slug}`).expect(200)).body.data.title).toBe(original);
    const again = await call(client, 'artikel_restore', { slug, number: 1 });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toMatch(/already has the text of revision 1/);
    const missing = await call(client, 'artikel_revisions', { slug, number: 42 });
    expect(missing.isError).toBe(true);
    const readerTools = (await (await connect(tokens.reader)).listTools()).tools.map((tool) => tool.name);
    // Reading the history needs Read (as in the admin's Revisions panel); restoring it needs Update.
    expect(readerTools).toContain('artikel_revisions');
    expect(readerTools).not.toContain('artikel_restore');
  });

  it('lets a token whose owner may not publish create drafts only, with a tool error that says why', async () => {
    const client = await connect(tokens.author);
    const published = await call(client, 'artikel_create', body());
    expect(published.isError).toBe(true);
    expect(textOf(published)).toMatch(/may not publish/);
    const draft = await call(client, 'artikel_create', body({ status: 'draft' }));
    expect(draft.structuredContent?.data.status).toBe('draft');
    const { tools } = await (await connect(tokens.author)).listTools();
    expect(tools.some((tool) => tool.name === 'artikel_delete')).toBe(false);
  });
});

it('answers an MCP request without a token with a 401 (the endpoint is on by default)', async () => {
  const answer = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
  });
  expect(answer.status).toBe(401);
});
