// @timing: the event loop's delay beside hostile MCP calls (run one at a time, see jest.config.js)
import fs from 'node:fs';
import path from 'node:path';
import { registerEditor } from '../helpers/admin';
import { removeServiceDatabase, startServiceProcess, type ServiceProcess } from '../helpers/service-process';
import { reportFigure } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';
import { baselineReads, besideCachedRead, expectLoopNotHeld, figures, send, type Answer } from './attack-support';

// POST /mcp (Strapi's MCP server, the artikel tools) with huge, batched, wrongly typed and
// unauthenticated bodies, each timed beside a cached GET /api/artikel. The tokens are made in an
// app in this process; the attacks go to a real service process on the same database, so the
// client's own work is not timed as the server's.
let app: TestApp;
let service: ServiceProcess;
let base: string;
let readUrl: string;
let baseline: number[];
let token: string;
let revoked: string;

interface AdminTokenService {
  create: (attributes: object, owner: object) => Promise<{ id: number | string; accessKey: string }>;
  revoke: (id: number | string) => Promise<unknown>;
}

async function adminToken(name: string): Promise<{ id: number | string; accessKey: string }> {
  const owner = await app.strapi.db.query('admin::user').findOne({ where: {}, populate: ['roles'] });
  const service = app.strapi.service('admin::api-token-admin') as unknown as AdminTokenService;
  const actions = ['read', 'create', 'update', 'delete', 'publish'];
  return service.create(
    {
      kind: 'admin',
      name,
      description: '',
      lifespan: null,
      adminPermissions: actions.map((action) => ({
        action: `plugin::content-manager.explorer.${action}`,
        subject: 'api::article.article',
      })),
    },
    owner,
  );
}

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: true, env: { ARTIKEL_RATE_LIMIT: '0' } });
  base = await app.baseUrl();
  await registerEditor(app);
  token = (await adminToken('mcp-attack')).accessKey;
  const old = await adminToken('mcp-revoked');
  await (app.strapi.service('admin::api-token-admin') as unknown as AdminTokenService).revoke(old.id);
  revoked = old.accessKey;
  for (let index = 0; index < 12; index += 1) {
    await app
      .api()
      .post('/api/artikel')
      .set(app.auth())
      .send({ title: `Quay ${index}`, category: 'Studio', content: 'A body.' })
      .expect(201);
  }
  await app.stop({ keepDatabase: true });
  service = await startServiceProcess(app.databaseFile, { ARTIKEL_RATE_LIMIT: '0' });
  base = service.baseUrl;
  readUrl = `${base}/api/artikel`;
  await send(readUrl);
  baseline = await baselineReads(readUrl);
  reportFigure('cached GET /api/artikel alone (baseline)', figures(baseline));
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await removeServiceDatabase(app.databaseFile);
  fs.rmSync(path.dirname(app.databaseFile), { recursive: true, force: true });
});

const rpc = (body: string, bearer: string | null = token): Promise<Answer> =>
  send(`${base}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...(bearer === null ? {} : { Authorization: `Bearer ${bearer}` }),
    },
    body,
  });

const call = (name: string, args: unknown, id: number | string = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

/**
 * Reported, not asserted: every MCP request with a valid token makes Strapi build a new MCP server
 * with every tool (its own and the Content Manager's), which holds the loop for hundreds of ms on
 * this machine; and a write's text pipeline runs on the loop. Known defects, left open (see the
 * closing note of issue 37); the figures show where they stand.
 */
function reportHeld(label: string, reads: number[], attackMs: number): void {
  reportFigure(`beside ${label} (known to hold the loop)`, `${figures(reads)}; attack ${attackMs.toFixed(0)} ms`);
}

/** The JSON-RPC message of an answer, whether sent as JSON or as one server-sent event. */
function messageOf(answer: Answer): ReturnType<typeof JSON.parse> {
  if (answer.body !== null) return answer.body;
  const data = answer.text.split('\n').find((line) => line.startsWith('data: '));
  return data === undefined ? null : JSON.parse(data.slice(6));
}

describe('without a valid token', () => {
  it.each([
    ['no token, a 1 MB body', null, 1024 * 1024 - 200],
    ['no token, a 10 MB body', null, 10 * 1024 * 1024],
    ['a revoked token, a 1 MB body', 'revoked', 1024 * 1024 - 200],
  ])('%s: a 4xx at once', async (label, who, size) => {
    const body = call('artikel_create', { title: 'x', category: 'Studio', content: 'y'.repeat(size) });
    const attack = () => rpc(body, who === null ? null : revoked);
    // A 1 or 10 MB body is also work for this test's process (it builds and sends it), on the same 2 cores as the reader and the service: reported only.
    const clientBusy = size > 100_000;
    const { result, reads } = clientBusy
      ? await besideCachedRead(readUrl, attack, 3)
      : await expectLoopNotHeld(`MCP ${label}`, readUrl, baseline, attack, 3);
    if (clientBusy) reportFigure(`beside MCP ${label} (client-side work included)`, figures(reads));
    reportFigure(`MCP ${label}`, `${result.status} ${result.text.slice(0, 160)}`);
    expect(result.status).toBeGreaterThanOrEqual(400);
    expect(result.status).toBeLessThan(500);
  });
});

describe('with a token', () => {
  it.each([
    ['tools/list', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), 'valid'],
    ['ping', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), 'valid'],
    ['ping with a revoked token', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), 'revoked'],
    ['ping without a token', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), 'none'],
  ])('a small %s is answered without a 5xx (refused at once without a valid token)', async (label, body, who) => {
    const bearer = who === 'valid' ? token : who === 'revoked' ? revoked : null;
    const attack = () => rpc(body, bearer);
    const { result, reads, attackMs } =
      who === 'valid'
        ? await besideCachedRead(readUrl, attack, 5)
        : await expectLoopNotHeld(`5 × MCP ${label}`, readUrl, baseline, attack, 5);
    if (who === 'valid') reportHeld(`5 × MCP ${label}`, reads, attackMs);
    reportFigure(`MCP ${label}`, `${result.status} ${result.text.slice(0, 100)}`);
    expect(result.status).toBeLessThan(500);
  });

  it('a tools/call with 10 MB of arguments is refused (413) at once', async () => {
    const body = call('artikel_create', { title: 'x', category: 'Studio', content: 'y'.repeat(10 * 1024 * 1024), dry_run: 'true' });
    const { result, reads, attackMs } = await besideCachedRead(readUrl, () => rpc(body));
    reportFigure('MCP 10 MB tools/call', `${result.status} ${result.text.slice(0, 160)}`);
    expect(result.status).toBe(413);
    reportFigure('beside MCP tools/call of 10 MB (client-side work included)', `${figures(reads)}; attack ${attackMs.toFixed(0)} ms`);
  });

  it('a dry-run create of the largest allowed content (1 MB of HTML) is answered (the time it holds the loop is reported)', async () => {
    const paragraph = '<p>Light and <strong>shadow</strong> over the quay.</p>';
    const content = paragraph.repeat(Math.floor((1024 * 1024 - 400) / paragraph.length));
    const body = call('artikel_create', { title: 'Longest by MCP', category: 'Studio', content, dry_run: true });
    const { result, reads, attackMs } = await besideCachedRead(readUrl, () => rpc(body));
    const message = messageOf(result);
    reportFigure('MCP dry-run create of 1 MB of HTML', `${result.status} isError ${message?.result?.isError ?? message?.error?.message}`);
    expect(result.status).toBe(200);
    reportHeld('MCP dry-run create of 1 MB of HTML', reads, attackMs);
  }, 60_000);

  it.each([
    ['limit as an object', 'artikel_search', { limit: { a: 1 } }],
    ['q as an array of 10,000 words', 'artikel_search', { q: Array.from({ length: 10_000 }, () => 'fog') }],
    ['q of 100,000 characters', 'artikel_search', { q: 'fog '.repeat(25_000) }],
    ['page of 1e308', 'artikel_search', { page: 1e308 }],
    ['slug of 100,000 characters', 'artikel_get', { slug: 's'.repeat(100_000) }],
    ['title as a number', 'artikel_create', { title: 5, category: 'Studio', content: 'x', dry_run: true }],
    ['arguments as an array', 'artikel_search', [1, 2, 3]],
    ['an unknown tool', 'no_such_tool', {}],
  ])('%s: a tool error or JSON-RPC error in plain words, never a 5xx', async (label, name, args) => {
    const { result, reads, attackMs } = await besideCachedRead(readUrl, () => rpc(call(name, args)), 3);
    const message = messageOf(result);
    const said = message?.error?.message ?? message?.result?.content?.[0]?.text ?? result.text;
    reportFigure(`MCP ${label}`, `${result.status} ${String(said).slice(0, 200)}`);
    expect(result.status).toBeLessThan(500);
    expect(message?.error !== undefined || message?.result?.isError === true).toBe(true);
    expect(String(said)).not.toMatch(/must be a `|but the final value was|cannot be cast|\$\{path\}|\n\s+at /);
    reportHeld(`MCP ${label}`, reads, attackMs);
  });

  it('a batch of 1,000 requests is answered (or refused) without a 5xx', async () => {
    const batch = JSON.stringify(
      Array.from({ length: 1000 }, (_unused, index) => JSON.parse(call('artikel_search', { q: 'quay' }, index))),
    );
    const { result, reads, attackMs } = await besideCachedRead(readUrl, () => rpc(batch));
    reportFigure('MCP batch of 1,000 tools/call', `${result.status} ${result.text.slice(0, 200)}`);
    expect(result.status).toBeLessThan(500);
    reportHeld('MCP batch of 1,000', reads, attackMs);
  }, 60_000);

  it('malformed JSON-RPC (not JSON, wrong version, a string, an empty or deep batch) is never a 5xx', async () => {
    for (const body of [
      '{',
      '{"jsonrpc":"1.0","id":1,"method":"tools/list"}',
      '"tools/list"',
      '[]',
      `[${'['.repeat(5000)}${']'.repeat(5000)}]`,
    ]) {
      const answer = await rpc(body);
      reportFigure(`MCP body ${body.slice(0, 40)}`, `${answer.status} ${answer.text.slice(0, 160)}`);
      expect(answer.status).toBeLessThan(500);
    }
  });
});
