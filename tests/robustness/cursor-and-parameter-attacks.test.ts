// @timing: the event loop's delay beside hostile query parameters (run one at a time, see jest.config.js)
import { createArticle } from '../helpers/fixtures';
import { isContractError, reportFigure } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';
import { cursorSigningKey, encodeCursor, queryKeyOf, type ListCursor } from '../../src/plugins/artikel/server/src/domain/list-cursor';
import { baselineReads, besideCachedRead, expectLoopNotHeld, figures, send, type Answer } from './attack-support';

// Attacks on the list cursor and on repeated query parameters, each timed beside a cached
// GET /api/artikel: no request may hold the event loop, answer a 5xx, or grow memory without bound.
let app: TestApp;
let base: string;
let readUrl: string;
let baseline: number[];
const ARTICLES = 60;

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: true, env: { ARTIKEL_RATE_LIMIT: '0' } });
  for (let index = 1; index <= ARTICLES; index += 1) {
    await createArticle(app.strapi, {
      title: `Harbour light ${index}`,
      slug: `harbour-light-${index}`,
      category: app.categoryId,
      tags: 'Harbour',
    });
  }
  base = await app.baseUrl();
  readUrl = `${base}/api/artikel`;
  await send(readUrl);
  baseline = await baselineReads(readUrl);
  reportFigure('cached GET /api/artikel alone (baseline)', figures(baseline));
}, 120_000);

afterAll(() => app.stop());

const usage = () => (app.strapi.plugin('artikel').service('read-cache') as { usage: () => { entries: number; bytes: number } }).usage();

function expectCursorRefusal(answer: Answer, message: RegExp): void {
  expect(answer.status).toBe(400);
  expect(isContractError(answer)).toBe(true);
  expect(answer.body.error.details.errors.map((error: { path: string[] }) => error.path)).toEqual([['cursor']]);
  expect(answer.body.error.message).toMatch(message);
}

const listUrl = (query: string) => `${base}/api/artikel?${query}`;
const NOT_ISSUED = /^cursor is not one this service issued.*start again from the first page without cursor/;

async function nextCursorOfFirstPage(query = ''): Promise<string> {
  const first = await send(listUrl(query));
  expect(first.status).toBe(200);
  return new URL(first.body.links.next).searchParams.get('cursor') as string;
}

/** A cursor signed with this app's own key, as only the service should be able to make. */
function forged(fields: Partial<Omit<ListCursor, 'position'>> & { position?: Partial<ListCursor['position']> }, limit = 10): string {
  const key = cursorSigningKey((app.strapi.config.get('server.app.keys') as string[])[0]);
  const cursor: ListCursor = {
    direction: fields.direction ?? 'after',
    position: { publishedMs: Date.now(), createdMs: Date.now(), documentId: 'aaaaaaaaaaaaaaaaaaaaaaaa', ...fields.position },
    page: fields.page ?? 2,
    queryKey: fields.queryKey ?? queryKeyOf([[], null, null, limit]),
    expires: fields.expires ?? Math.floor(Date.now() / 1000) + 3600,
  };
  return encodeCursor(cursor, key);
}

describe('cursor size bounds', () => {
  it.each([
    ['1,024 characters of base64url with a dot', 1024],
    ['1,025 characters of base64url with a dot', 1025],
    ['8,000 characters of base64url with a dot', 8000],
  ])('refuses a cursor of %s with a 400 naming cursor, without holding the loop', async (label, size) => {
    const cursor = `${'A'.repeat(size - 23)}.${'B'.repeat(22)}`;
    expect(cursor).toHaveLength(size);
    const { result } = await expectLoopNotHeld(`cursor of ${label}`, readUrl, baseline, () => send(listUrl(`cursor=${cursor}`)), 5);
    expectCursorRefusal(result, NOT_ISSUED);
  });

  it('checks the signature before it reads the JSON inside: valid base64url of deep or huge JSON is "not issued"', async () => {
    const deep = Buffer.from('['.repeat(740)).toString('base64url');
    const wide = Buffer.from(JSON.stringify([1, 'a', ...Array.from({ length: 180 }, () => 1e300)]))
      .toString('base64url')
      .slice(0, 1000);
    for (const payload of [deep, wide]) {
      const cursor = `${payload}.${'A'.repeat(22)}`.slice(0, 1024);
      expectCursorRefusal(await send(listUrl(`cursor=${cursor}`)), NOT_ISSUED);
    }
  });
});

describe('forged cursors (signed with the app key)', () => {
  it('answers a cursor whose page number is the largest safe integer, and its next link still works', async () => {
    const answer = await send(listUrl(`cursor=${forged({ page: Number.MAX_SAFE_INTEGER })}`));
    expect(answer.status).toBe(200);
    expect(answer.body.data).toHaveLength(10);
    const next = await send(answer.body.links.next);
    reportFigure('next of a cursor at page 2^53-1', `${next.status} ${next.body?.error?.message ?? ''}`);
    // A link the service gave must be followable: the next page's number may not overflow into a cursor it refuses.
    expect(next.status).toBe(200);
  });

  it.each([
    ['the largest safe integer as published time', { publishedMs: Number.MAX_SAFE_INTEGER }],
    ['a published time past the last date JavaScript holds', { publishedMs: 8_640_000_000_000_001 }],
    ['a created time past the last date JavaScript holds', { createdMs: 8_640_000_000_000_001 }],
  ])('answers a cursor with %s with a 200 or a 400, never a 5xx', async (_label, position) => {
    for (const direction of ['after', 'before'] as const) {
      const answer = await send(listUrl(`cursor=${forged({ direction, position })}`));
      reportFigure(`forged ${direction} cursor ${JSON.stringify(position)}`, `${answer.status} ${answer.body?.error?.message ?? ''}`);
      expect(answer.status).toBeLessThan(500);
      if (answer.status !== 200) expect(isContractError(answer)).toBe(true);
    }
  });

  it('refuses negative and fractional positions as not issued', async () => {
    for (const position of [{ publishedMs: -1 }, { createdMs: 1.5 }]) {
      expectCursorRefusal(await send(listUrl(`cursor=${forged({ position })}`)), NOT_ISSUED);
    }
  });

  it('a before cursor at the top of the list is the first page, linking no previous page', async () => {
    const answer = await send(
      listUrl(`cursor=${forged({ direction: 'before', page: 7, position: { publishedMs: Date.now() + 86_400_000 } })}`),
    );
    expect(answer.status).toBe(200);
    expect(answer.body.meta.pagination.page).toBe(1);
    expect(answer.body.links.prev).toBeNull();
    expect(answer.body.data[0].slug).toBe(`harbour-light-${ARTICLES}`);
  });
});

describe('many cursors and repeated cursors', () => {
  it('answers one cursor repeated as often as the request line holds (and an empty cursor 1,000 times) as the cursor once', async () => {
    const cursor = await nextCursorOfFirstPage();
    const once = await send(listUrl(`cursor=${cursor}`));
    expect(once.status).toBe(200);
    const fit = Math.floor(16_000 / (cursor.length + 8));
    reportFigure('cursor length', `${cursor.length} characters: ${fit} fit in a request line`);
    const empty = await send(listUrl(Array.from({ length: 1000 }, () => 'cursor=').join('&')));
    expect(empty.status).toBe(200);
    expect(empty.body.meta.pagination.page).toBe(1);
    for (const times of [20, 21, fit]) {
      const { result } = await expectLoopNotHeld(`cursor repeated ${times} times`, readUrl, baseline, () =>
        send(listUrl(Array.from({ length: times }, () => `cursor=${cursor}`).join('&'))),
      );
      expect(result.status).toBe(200);
      expect(result.body.data).toEqual(once.body.data);
    }
  });

  it('cursor + page + 1,000 other parameters: a 400 naming the unknown ones, in the contract body', async () => {
    const cursor = await nextCursorOfFirstPage();
    const others = Array.from({ length: 1000 }, (_unused, index) => `p${index}=${index}`).join('&');
    const { result } = await expectLoopNotHeld(
      'cursor + page + 1,000 parameters',
      readUrl,
      baseline,
      () => send(listUrl(`cursor=${cursor}&page=3&${others}`)),
      5,
    );
    expect(result.status).toBe(400);
    expect(isContractError(result)).toBe(true);
    // The first ones by name, then how many more: an answer of 240 KB (each naming the allowed
    // parameters again) took the service as long to write as the request to refuse.
    const named = (result.body.error.details.errors as Array<{ path: string[]; message: string }>).map((error) => error.path.join('.'));
    expect(named.slice(0, 3)).toEqual(['p0', 'p1', 'p2']);
    expect(named.length).toBeLessThanOrEqual(21);
    expect(result.body.error.message).toMatch(/and \d+ more parameters are not allowed/);
    expect(result.body.error.message.length).toBeLessThan(10_000);
    reportFigure(
      '1,000 unknown parameters refused',
      `${result.body.error.details.errors.length} named, message ${result.body.error.message.length} characters`,
    );
  });

  it('refuses cursor[a][b][c]… (deep object) with a 400 naming cursor as an object', async () => {
    const deep = `cursor${'[a]'.repeat(2000)}=x`;
    const { result } = await expectLoopNotHeld('cursor[a]×2,000', readUrl, baseline, () => send(listUrl(deep)));
    expectCursorRefusal(result, /^cursor must be one value, not an object/);
  });

  it('replays one cursor 10,000 times (50 at once): all 200, one cache entry, bounded memory', async () => {
    const cursor = await nextCursorOfFirstPage();
    await send(listUrl(`cursor=${cursor}`));
    const entriesBefore = usage().entries;
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const statuses = new Map<number, number>();
    const { reads, loopMaxMs, attackMs } = await besideCachedRead(readUrl, async () => {
      let sent = 0;
      await Promise.all(
        Array.from({ length: 50 }, async () => {
          while (sent < 10_000) {
            sent += 1;
            const answer = await fetch(listUrl(`cursor=${cursor}`));
            await answer.arrayBuffer();
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          }
        }),
      );
    });
    global.gc?.();
    const heapGrowth = (process.memoryUsage().heapUsed - heapBefore) / 1e6;
    reportFigure(
      '10,000 replays of one cursor',
      `${JSON.stringify(Object.fromEntries(statuses))} in ${attackMs.toFixed(0)} ms; cache entries ${entriesBefore} → ${usage().entries}; heap ${heapGrowth.toFixed(1)} MB`,
    );
    expect(statuses.get(200)).toBe(10_000);
    expect(usage().entries).toBe(entriesBefore);
    // The beside-read here waits its turn among 50 concurrent reads of the same cost: reported, not held to the baseline.
    reportFigure(
      'beside 10,000 replays (queued behind 50 concurrent reads)',
      `${figures(reads)}; loop delay max ${loopMaxMs.toFixed(1)} ms`,
    );
  }, 180_000);

  it('distinct cursors of a walk leave the read cache bounded', async () => {
    let url: string | null = listUrl('limit=1');
    let pages = 0;
    while (url !== null && pages < 60) {
      const answer = await send(url);
      expect(answer.status).toBe(200);
      url = answer.body.links.next;
      pages += 1;
    }
    reportFigure('a walk of 60 pages of 1', `cache ${JSON.stringify(usage())}`);
    expect(pages).toBe(ARTICLES);
  });
});

describe('repeated parameters', () => {
  it.each([100, 101, 1000, 1999])('answers limit=1 repeated %i times as limit=1', async (times) => {
    const query = Array.from({ length: times }, () => 'limit=1').join('&');
    const { result } = await expectLoopNotHeld(`limit=1 ×${times}`, readUrl, baseline, () => send(listUrl(query)), 5);
    reportFigure(`limit=1 ×${times}`, `request line ${query.length + 20} characters: ${result.status}`);
    expect(result.status).toBe(200);
    expect(result.body.meta.pagination.limit).toBe(1);
    expect(result.body.links.next).not.toMatch(/limit=1&limit=1/);
  });

  it('answers limit=1 then limit=2 among 1,000 repeats with a 400 naming limit', async () => {
    const query = [...Array.from({ length: 999 }, () => 'limit=1'), 'limit=2'].join('&');
    const answer = await send(listUrl(query));
    reportFigure('limit=1 ×999 + limit=2', `${answer.status} ${answer.body?.error?.message ?? ''}`);
    expect(answer.status).toBe(400);
    expect(isContractError(answer)).toBe(true);
    expect(answer.body.error.details.errors.map((error: { path: string[] }) => error.path)).toEqual([['limit']]);
    expect(answer.body.error.message).toMatch(/^limit was sent with different values \("1" and "2"\): send it once$/);
  });

  it.each([
    ['q[0]=a&q[1][x]=b', 'q', /q must be one value, not an object/],
    ['q=a&q[x]=b', 'q', /q must be one value, not an object/],
    ['limit[]=1&limit[]=2', 'limit', /limit was sent with different values/],
    ['limit[0]=1&limit[5]=1', 'limit', null],
    ['page=1&page=01', 'page', /page was sent with different values/],
    ['kategori[__proto__]=x', 'kategori', null],
  ])('%s: a 200 or a 400 naming %s, never a 5xx', async (query, name, message) => {
    const answer = await send(listUrl(query));
    reportFigure(`mixed ${query}`, `${answer.status} ${answer.body?.error?.message ?? ''}`);
    if (message === null) {
      expect(answer.status).toBe(200);
      return;
    }
    expect(answer.status).toBe(400);
    expect(isContractError(answer)).toBe(true);
    expect(answer.body.error.details.errors.map((error: { path: string[] }) => error.path)).toEqual([[name]]);
    expect(answer.body.error.message).toMatch(message);
  });

  it('a request line just past 16 KB is refused by the HTTP server with a 4xx, never a 5xx', async () => {
    const query = Array.from({ length: 2100 }, () => 'limit=1').join('&');
    const answer = await send(listUrl(query));
    reportFigure('request line of 16.8 KB', `${answer.status} ${answer.text.slice(0, 80)}`);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
  });
});
