// @timing: the event loop's delay beside hostile writes and representations (run one at a time, see jest.config.js)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isContractError, reportFigure } from '../helpers/robustness';
import { removeServiceDatabase, startServiceProcess, type ServiceProcess } from '../helpers/service-process';
import { baselineReads, besideCachedRead, expectLoopNotHeld, figures, processorMs, send, type Answer } from './attack-support';

// PATCH, DELETE and the representations (Markdown, CSV, llms.txt) at the largest inputs the bounds
// allow and just past them, each timed beside a cached GET /api/artikel on a real service process:
// the event loop that a request could hold is the one that answers everyone.
let service: ServiceProcess;
let folder: string;
let readUrl: string;
let baseline: number[];

const LIMIT = 1024 * 1024;
const json = (token: string) => ({ Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' });

/** About 1 MB of ordinary HTML (a long essay pasted from a word processor), as a body that fits the limit. */
function largestHtmlBody(title: string, extra = 0): string {
  const paragraph = '<p>Light and <strong>shadow</strong> over the harbour at dawn, <em>waiting</em> for the fog.</p>';
  const skeleton = JSON.stringify({ title, category: 'Essays', content: '' });
  const room = LIMIT - Buffer.byteLength(skeleton) + extra;
  const content = paragraph.repeat(Math.ceil(room / paragraph.length)).slice(0, room);
  const body = JSON.stringify({ title, category: 'Essays', content });
  expect(Buffer.byteLength(body)).toBe(LIMIT + extra);
  return body;
}

const post = (body: string, headers: Record<string, string> = {}) =>
  send(`${service.baseUrl}/api/artikel`, { method: 'POST', headers: { ...json(service.token), ...headers }, body });
const patch = (slug: string, body: string, headers: Record<string, string> = {}) =>
  send(`${service.baseUrl}/api/artikel/${slug}`, { method: 'PATCH', headers: { ...json(service.token), ...headers }, body });
const remove = (slug: string, headers: Record<string, string> = {}) =>
  send(`${service.baseUrl}/api/artikel/${slug}`, { method: 'DELETE', headers: { Authorization: `Bearer ${service.token}`, ...headers } });
const get = (pathAndQuery: string) => send(`${service.baseUrl}${pathAndQuery}`);

/**
 * Reported, not asserted. The text pipeline (sanitizing, summary, rendering, turndown) of a long
 * content runs on a thread now (infrastructure/text-work.ts): beside a 1 MB write the read waited
 * about 550 ms before, 60–350 ms after. What still holds the loop is not text work (CPU profile of
 * the service): better-sqlite3's synchronous statements writing the 1 MB rows (draft, published,
 * search text) inside the write's transaction, the answer's ETag hash and its length. For the first
 * Markdown of the 1 MB article 25–55 ms remain (reading and hashing 1 MB), under the 100 ms bound
 * but without the 3× headroom an assertion on a loaded 2-core machine needs. Known, open.
 */
function reportHeld(label: string, reads: number[], attackMs: number): void {
  reportFigure(`beside ${label} (known to hold the loop)`, `${figures(reads)}; attack ${attackMs.toFixed(0)} ms`);
}

function expectRefusal(answer: Answer, status: number, pathName?: string): void {
  expect(answer.status).toBe(status);
  expect(isContractError(answer)).toBe(true);
  if (pathName !== undefined) expect(answer.body.error.details.errors.map((error: { path: string[] }) => error.path)).toEqual([[pathName]]);
}

let bigSlug: string | undefined;

/**
 * The 1 MB article's slug: the one the POST test stored, or one stored now, so that each test of the
 * largest article also runs alone (`-t`).
 */
async function largestArticleSlug(): Promise<string> {
  if (bigSlug === undefined) {
    const stored = await post(largestHtmlBody('The longest essay'));
    expect(stored.status).toBe(201);
    bigSlug = stored.body.data.slug as string;
  }
  return bigSlug;
}

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-write-attacks-'));
  service = await startServiceProcess(path.join(folder, 'data.db'), { ARTIKEL_RATE_LIMIT: '0' });
  readUrl = `${service.baseUrl}/api/artikel`;
  for (let index = 0; index < 5; index += 1) {
    expect((await post(JSON.stringify({ title: `Small ${index}`, category: 'Essays', content: 'A short body.' }))).status).toBe(201);
  }
  await send(readUrl);
  baseline = await baselineReads(readUrl);
  reportFigure('cached GET /api/artikel alone (baseline)', figures(baseline));
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await removeServiceDatabase(path.join(folder, 'data.db'));
  fs.rmSync(folder, { recursive: true, force: true });
});

describe('the largest article', () => {
  it('POST of the largest allowed body (1 MB of HTML) is stored (the time it holds the loop is reported)', async () => {
    const { result, reads, attackMs } = await besideCachedRead(readUrl, () => post(largestHtmlBody('The longest essay')));
    expect(result.status).toBe(201);
    bigSlug = result.body.data.slug;
    reportHeld('POST of 1 MB of HTML', reads, attackMs);
  }, 60_000);

  it('GET ?format=md of the largest article, once its Markdown is made, is sent without making it again (anonymous)', async () => {
    const slug = await largestArticleSlug();
    // The service's processor time for each read (ms): unlike the wall clock, a loaded machine does
    // not stretch it (a PostgreSQL run once timed the remembered sends at 181 ms each).
    const pid = Number(service.child.pid);
    const spentOn = async <T>(reads: () => Promise<T>, count: number): Promise<{ read: T; eachMs: number }> => {
      const before = processorMs(pid);
      const read = await reads();
      return { read, eachMs: (processorMs(pid) - before) / count };
    };
    // The first read of a version makes its Markdown (about a second for 1 MB of HTML); it is then remembered.
    const first = await spentOn(() => besideCachedRead(readUrl, () => get(`/api/artikel/${slug}?format=md`)), 1);
    reportHeld('the first GET ?format=md of the 1 MB article', first.read.reads, first.read.attackMs);
    const again = await spentOn(() => besideCachedRead(readUrl, () => get(`/api/artikel/${slug}?format=md`), 3), 3);
    const { result, reads, attackMs } = again.read;
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toMatch(/^text\/markdown/);
    reportFigure('Markdown of the largest article', `${result.text.length} characters in ${(attackMs / 3).toFixed(0)} ms each`);
    reportFigure('beside 3 × GET ?format=md of the 1 MB article', figures(reads));
    reportFigure('processor time of the service per GET ?format=md', `first ${first.eachMs} ms, then ${again.eachMs.toFixed(0)} ms each`);
    // Sent, not made again: a quarter of the first read's processor time at most.
    expect(again.eachMs).toBeLessThan(first.eachMs / 4);
    // Asked for by Accept: the same remembered text.
    const byAccept = await spentOn(
      () => besideCachedRead(readUrl, () => send(`${service.baseUrl}/api/artikel/${slug}`, { headers: { Accept: 'text/markdown' } }), 3),
      3,
    );
    expect(byAccept.read.result.status).toBe(200);
    expect(byAccept.read.result.text).toBe(result.text);
    expect(byAccept.eachMs).toBeLessThan(first.eachMs / 4);
  }, 60_000);

  it('PATCH with the largest allowed body is stored (the time it holds the loop is reported)', async () => {
    const slug = await largestArticleSlug();
    const body = largestHtmlBody('The longest essay, revised');
    const { result, reads, attackMs } = await besideCachedRead(readUrl, () => patch(slug, body));
    expect(result.status).toBe(200);
    reportHeld('PATCH of 1 MB of HTML', reads, attackMs);
  }, 60_000);

  it('PATCH just past the body limit is a 413 that changes nothing', async () => {
    const slug = await largestArticleSlug();
    const before = await get(`/api/artikel/${slug}`);
    const past = await patch(slug, largestHtmlBody('Too long', 1));
    expectRefusal(past, 413);
    expect(past.body.error.name).toBe('PayloadTooLargeError');
    const after = await get(`/api/artikel/${slug}`);
    expect(after.body.data.title).toBe(before.body.data.title);
    expect(after.body.data.updated_at).toBe(before.body.data.updated_at);
  }, 60_000);
});

describe('If-Match, Idempotency-Key and slugs at their edges', () => {
  let slug: string;
  beforeAll(async () => {
    const created = await post(JSON.stringify({ title: 'Edge cases', category: 'Essays', content: 'Body one.' }));
    slug = created.body.data.slug;
  });

  it.each([
    ['a 15 KB list of quoted tags', () => Array.from({ length: 1400 }, (_unused, index) => `"t${index}"`).join(', '), 412],
    ['one tag of 15 KB', () => `"${'a'.repeat(15_000)}"`, 412],
    ['weak tags only', () => 'W/"abc", W/"def"', 412],
    ['an unterminated tag', () => '"abc', 400],
    ['tags without commas', () => '"a" "b"', 400],
    ['* among tags', () => '*, "a"', 400],
    ['a tag with a space', () => '"a b"', 400],
    ['15 KB of commas', () => ','.repeat(15_000), 400],
  ])('If-Match of %s: the answer it should be, nothing changed, loop not held', async (label, header, status) => {
    const { result } = await expectLoopNotHeld(
      `If-Match of ${label}`,
      readUrl,
      baseline,
      () => patch(slug, JSON.stringify({ title: 'Changed' }), { 'If-Match': header() }),
      3,
    );
    expectRefusal(result, status, status === 400 ? 'If-Match' : undefined);
    expect((await get(`/api/artikel/${slug}`)).body.data.title).toBe('Edge cases');
  });

  it('If-Match on DELETE: a stale tag is a 412 and deletes nothing', async () => {
    expectRefusal(await remove(slug, { 'If-Match': '"stale.tag"' }), 412);
    expect((await get(`/api/artikel/${slug}`)).status).toBe(200);
  });

  it.each([
    ['255 characters', 'k'.repeat(255), 200],
    ['256 characters', 'k'.repeat(256), 400],
    ['a quoted Structured Fields string with escapes', '"a\\"b\\\\c"', 200],
    ['an empty quoted string', '""', 400],
    ['a 15 KB key', 'k'.repeat(15_000), 400],
    ['a non-ASCII key', 'schlüssel', 400],
  ])('Idempotency-Key of %s on PATCH', async (_label, key, status) => {
    const title = `Edge cases ${status} ${key.length}`;
    const answer = await patch(slug, JSON.stringify({ title }), { 'Idempotency-Key': key });
    if (status === 400) expectRefusal(answer, 400, 'Idempotency-Key');
    else {
      expect(answer.status).toBe(200);
      const replay = await patch(slug, JSON.stringify({ title }), { 'Idempotency-Key': key });
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      // The same key on another article's PATCH is another request: 422.
      const other = await patch('small-0', JSON.stringify({ title }), { 'Idempotency-Key': key });
      expectRefusal(other, 422);
      await patch(slug, JSON.stringify({ title: 'Edge cases' }));
    }
  });

  it.each(['GET', 'PATCH', 'DELETE'])('%s of a 10 KB slug is a 404 in the contract body, at once', async (method) => {
    const longSlug = 'a'.repeat(10_240);
    const { result } = await expectLoopNotHeld(
      `${method} of a 10 KB slug`,
      readUrl,
      baseline,
      () =>
        send(`${service.baseUrl}/api/artikel/${longSlug}`, {
          method,
          headers: method === 'GET' ? {} : json(service.token),
          body: method === 'PATCH' ? JSON.stringify({ title: 'x' }) : undefined,
        }),
      3,
    );
    expectRefusal(result, 404);
    expect(result.text.length).toBeLessThan(2_000);
  });

  it('concurrent PATCH and DELETE of one article: no 5xx, and the end state is consistent', async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < 10; round += 1) {
      const created = await post(JSON.stringify({ title: `Race ${round}`, category: 'Essays', content: 'Race body.' }));
      const raceSlug = created.body.data.slug as string;
      const answers = await Promise.all([
        patch(raceSlug, JSON.stringify({ title: `Race ${round} edited`, content: 'Edited.' })),
        remove(raceSlug),
        patch(raceSlug, JSON.stringify({ slug: `${raceSlug}-moved` })),
        remove(raceSlug),
      ]);
      for (const answer of answers) {
        expect(answer.status).toBeLessThan(500);
        if (answer.status >= 400) expect(isContractError(answer)).toBe(true);
      }
      outcomes.push(answers.map((answer) => answer.status).join('/'));
      const deleted = answers.filter((answer) => answer.status === 204).length;
      expect(deleted).toBe(1);
      // Deleted: gone under every slug, and from the list.
      expect((await get(`/api/artikel/${raceSlug}`)).status).toBe(404);
      expect((await get(`/api/artikel/${raceSlug}-moved`)).status).toBe(404);
      const list = await get('/api/artikel?limit=50');
      expect(list.body.data.map((article: { title: string }) => article.title)).not.toContain(`Race ${round}`);
      expect(list.body.data.map((article: { title: string }) => article.title)).not.toContain(`Race ${round} edited`);
    }
    reportFigure('concurrent PATCH, DELETE, PATCH (move), DELETE', outcomes.join(', '));
  }, 60_000);
});

describe('CSV of the largest summaries and formula cells', () => {
  const FORMULAS = ['=1+1', '+1+1', '-1+1', '@SUM(A1)', '\t=1+1', '\r=1+1', "=cmd|' /C calc'!A0"];
  beforeAll(async () => {
    for (let index = 0; index < 50; index += 1) {
      const formula = FORMULAS[index % FORMULAS.length];
      const tags = Array.from({ length: 20 }, (_unused, tag) => `${tag === 0 ? '=' : ''}${`t${index}x${tag}`.padEnd(49, 'g')}`).join(', ');
      const body = {
        title: `${formula}${'T'.repeat(255 - formula.length - 3)}${String(index).padStart(3, '0')}`.slice(0, 255),
        category: index % 2 === 0 ? '=HYPERLINK("http://evil.example")' : 'Essays',
        content: 'A body.',
        summary: `${formula}${'S'.repeat(1000 - formula.length)}`,
        tags,
        author: `${formula}${'A'.repeat(255 - formula.length)}`,
        cover_image_url: `https://example.com/${'c'.repeat(2048 - 'https://example.com/'.length)}`,
      };
      const created = await post(JSON.stringify(body));
      expect(created.status).toBe(201);
    }
  }, 120_000);

  it('a CSV of 50 of the largest summaries does not hold the loop, and no cell starts as a formula', async () => {
    const { result, attackMs } = await expectLoopNotHeld(
      '5 × CSV of 50 largest summaries',
      readUrl,
      baseline,
      () => get('/api/artikel?format=csv&limit=50'),
      5,
    );
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toMatch(/^text\/csv/);
    reportFigure('CSV of 50 largest summaries', `${result.text.length} characters, ${(attackMs / 5).toFixed(0)} ms each`);
    // Every cell: unquoted, or quoted with quotes doubled; none may start with a formula character.
    const cells: string[] = [];
    const cell = /(?:^|,)(?:"((?:[^"]|"")*)"|([^,\r\n]*))/gy;
    for (const line of result.text.split('\r\n').filter((row) => row !== '')) {
      cell.lastIndex = 0;
      for (let match = cell.exec(line); match !== null && match[0] !== ''; match = cell.exec(line)) cells.push(match[1] ?? match[2]);
    }
    const formulaCells = cells.filter((value) => /^[=+\-@\t\r]/.test(value));
    expect(formulaCells).toEqual([]);
  }, 60_000);

  it('llms.txt answers at once', async () => {
    const { result } = await expectLoopNotHeld('10 × llms.txt', readUrl, baseline, () => get('/api/artikel/llms.txt'), 10);
    expect(result.status).toBe(200);
  });
});
