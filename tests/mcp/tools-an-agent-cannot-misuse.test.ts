import { registerEditor } from '../helpers/admin';
import { adminTokenOf, mcpClient, textOf } from '../helpers/factories';
import { reportFigure } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

/**
 * What an LLM behind a real MCP client meets: arguments it invents are refused, not dropped; the
 * schemas say what is required and bound what is numeric; annotations say which tools only read;
 * and the text part carries what its next call needs.
 */
let app: TestApp;
let agent: Awaited<ReturnType<typeof mcpClient>>;
let listed: Array<{
  name: string;
  annotations?: Record<string, unknown>;
  inputSchema: { properties?: Record<string, Record<string, unknown>> };
  outputSchema?: JsonSchema;
}>;

/** The part of a JSON Schema the output checks read. */
interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
}

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: { name: 'Weddings', slug: 'weddings' } });
  await registerEditor(app);
  const owner = (await app.strapi.db.query('admin::user').findOne({ where: {} })) as { id: number };
  const token = await adminTokenOf(app, owner.id, ['read', 'create', 'update', 'delete', 'publish']);
  agent = await mcpClient(app, token);
  listed = await agent.list();
  for (let n = 1; n <= 3; n += 1)
    await app
      .api()
      .post('/api/artikel')
      .set(app.auth())
      .send({ title: `Wedding story ${n}`, category: 'Weddings', content: `A wedding, part ${n}.` })
      .expect(201);
});

afterAll(async () => {
  await agent?.close();
  await app?.stop();
});

describe('the article tools an agent cannot misuse', () => {
  it('refuses an unknown argument, naming the one meant, instead of answering as if unfiltered', async () => {
    const category = await agent.call('artikel_search', { category: 'Weddings' });
    expect(category.isError).toBe(true);
    expect(textOf(category)).toMatch(/category is not an argument of this tool: did you mean kategori\?/);
    const query = await agent.call('artikel_search', { query: 'wedding' });
    expect(textOf(query)).toMatch(/query is not an argument of this tool: did you mean q\?/);
    const views = await agent.call('artikel_create', { title: 'Counted', category: 'Weddings', content: 'x', views: 1000 });
    expect(views.isError).toBe(true);
    expect(textOf(views)).toMatch(/views is not an argument of this tool \(allowed: title, category, content/);
    await app.api().get('/api/artikel/counted').expect(404);
  });

  it('bounds its numbers in the schema and refuses those outside', async () => {
    const search = listed.find((tool) => tool.name === 'artikel_search');
    expect(JSON.stringify(search?.inputSchema.properties?.limit)).toMatch(/"minimum":1.*"maximum":50/);
    const negative = await agent.call('artikel_search', { limit: -9007199254740991 });
    expect(negative.isError).toBe(true);
    expect(textOf(negative)).toMatch(/limit must be a whole number from 1 to 50/);
  });

  it("lists the studio's tools and none of Strapi's generic ones for Article and Category", async () => {
    const names = listed.map((tool) => tool.name);
    expect(
      names.filter((name) =>
        /^(list|get|create|update|delete|publish|unpublish|write)_(article|category)$|^discard_(article|category)_draft$/.test(name),
      ),
    ).toEqual([]);
    expect(names.filter((name) => name.startsWith('artikel_'))).toHaveLength(9);
    reportFigure(
      'tools/list of a full admin token',
      `${names.length} tools, ${Buffer.byteLength(JSON.stringify(listed))} bytes: ${names.join(', ')}`,
    );
  });

  it("describes each tool's data in its output schema: every field of an article, with its type", async () => {
    const outputOf = (name: string): JsonSchema => listed.find((tool) => tool.name === name)?.outputSchema ?? {};
    const article = outputOf('artikel_get').properties?.data ?? {};
    expect(article.type).toBe('object');
    expect(article.required).toEqual(expect.arrayContaining(['slug', 'title', 'status', 'content', 'published_at', 'related']));
    expect(article.properties?.slug?.type).toBe('string');
    expect(article.properties?.views?.type).toBe('integer');
    expect(article.properties?.status?.enum).toEqual(['published', 'draft', 'scheduled']);
    const hits = outputOf('artikel_search').properties ?? {};
    expect(hits.data?.type).toBe('array');
    expect(hits.data?.items?.properties?.highlight).toBeDefined();
    expect(hits.meta?.properties?.next_cursor).toBeDefined();
    for (const tool of listed.filter((entry) => entry.name.startsWith('artikel_')))
      expect([tool.name, JSON.stringify(tool.outputSchema?.properties?.data ?? {})]).not.toEqual([tool.name, '{}']);
    // The SDK's client checks every structuredContent against these (the calls in this file pass them).
    const answer = await agent.call('artikel_search', { q: 'wedding', limit: 2 });
    expect(answer.isError).toBeFalsy();
  });

  it('marks the reading tools read-only and the delete destructive in tools/list', async () => {
    const hints = Object.fromEntries(
      listed.filter((tool) => tool.name.startsWith('artikel_')).map((tool) => [tool.name, tool.annotations]),
    );
    for (const name of ['artikel_search', 'artikel_get', 'artikel_categories', 'artikel_latest', 'artikel_revisions'])
      expect(hints[name]).toMatchObject({ readOnlyHint: true });
    expect(hints.artikel_delete).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(hints.artikel_update).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });

  it('moves an article with new_slug, the old slug then answering 301', async () => {
    const created = await agent.call('artikel_create', { title: 'Old address', category: 'Weddings', content: 'Moving soon.' });
    const slug = String(created.structuredContent?.data.slug);
    const moved = await agent.call('artikel_update', { slug, new_slug: 'new-address' });
    expect(moved.isError).toBeFalsy();
    expect(moved.structuredContent?.data).toMatchObject({ slug: 'new-address' });
    await app.api().get('/api/artikel/new-address').expect(200);
    await app.api().get(`/api/artikel/${slug}`).expect(301);
  });

  it('puts the next cursor, the etag, the slug and the status in the text a host passes to the model', async () => {
    const page = await agent.call('artikel_search', { q: 'wedding', limit: 2 });
    const cursor = String(page.structuredContent?.meta?.next_cursor);
    expect(textOf(page)).toContain(`cursor "${cursor}"`);
    const next = await agent.call('artikel_search', { q: 'wedding', limit: 2, cursor });
    expect(textOf(next)).toMatch(/This is the last page/);
    const got = await agent.call('artikel_get', { slug: 'wedding-story-1' });
    const etag = String(got.structuredContent?.meta?.etag);
    expect(textOf(got)).toContain(`etag: ${etag}`);
    expect(textOf(got)).toMatch(/status: published/);
    expect(textOf(got)).toMatch(/slug: wedding-story-1/);
    const changed = await agent.call('artikel_update', { slug: 'wedding-story-1', title: 'Wedding story, retold', if_match: etag });
    expect(changed.isError).toBeFalsy();
    expect(textOf(changed)).toMatch(/etag: "/);
  });
});

describe('oversized input', () => {
  it('refuses 2 MB of content as a tool error the agent can act on, storing nothing', async () => {
    const answer = await agent.call('artikel_create', { title: 'Terlalu panjang', category: 'Weddings', content: 'kata '.repeat(420_000) });
    expect(answer.isError).toBe(true);
    expect(textOf(answer)).toMatch(/The arguments are 2\.0 MB; a tool call may carry at most 1 MB/);
    await app.api().get('/api/artikel/terlalu-panjang').expect(404);
  });
});
