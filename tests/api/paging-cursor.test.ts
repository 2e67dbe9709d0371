import { parse as parseCsv } from 'csv-parse/sync';
import type supertest from 'supertest';
import { ARTICLE_UID, createArticle, createCategory } from '../helpers/fixtures';
import { sleep } from '../helpers/public-reads';
import { isContractError } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

// Cursor paging of GET /api/artikel (design of issue 37): every list answer's links.next carries a
// signed cursor instead of a page number, and walking along it lists every article exactly once.

/** A cursor as the links carry it: base64url text, a dot, base64url text (payload and signature). */
const CURSOR = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
/** What no error message may carry: a validator's internal wording. */
const VALIDATOR_WORDING = /`|final value|cannot be cast|\$\{path\}|must be a .*type/i;
const NOT_ISSUED = /^cursor is not one this service issued/;

// A boot on a loaded 2-core machine takes 15-30 s: three times that, and more for the restart.
const BOOT_MS = 180_000;

interface Pagination {
  page: number;
  limit: number;
  total: number;
  page_count: number;
}

interface ListAnswer {
  slugs: string[];
  pagination: Pagination;
  links: { next: string | null; prev: string | null };
  /** The Link header, read into the same shape as the body's links. */
  header: { next: string | null; prev: string | null };
}

type Query = Record<string, string>;

const listPath = (query: Query) => {
  const search = new URLSearchParams(query).toString();
  return `/api/artikel${search === '' ? '' : `?${search}`}`;
};

/** The path and query of an absolute link, for the test's own agent. */
const pathOf = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

/** A Link header (RFC 8288) as { next, prev }; anything else in it is an error. */
function linkHeaderOf(header: string | undefined): { next: string | null; prev: string | null } {
  const links: { next: string | null; prev: string | null } = { next: null, prev: null };
  if (header === undefined || header === '') return links;
  for (const part of header.split(/,\s*(?=<)/)) {
    const match = /^<([^>]*)>\s*;\s*rel="?(next|prev)"?$/.exec(part.trim());
    if (match === null) throw new Error(`a Link header part that is not rel="next" or rel="prev": ${part}`);
    links[match[2] as 'next' | 'prev'] = match[1];
  }
  return links;
}

async function getList(app: TestApp, path: string): Promise<ListAnswer> {
  const answer = await app.api().get(path).expect(200);
  return {
    slugs: (answer.body.data as Array<{ slug: string }>).map((article) => article.slug),
    pagination: answer.body.meta.pagination as Pagination,
    links: answer.body.links,
    header: linkHeaderOf(answer.headers.link),
  };
}

/** The parameters of a link, sorted, with the cursor apart. */
function partsOf(link: string) {
  const url = new URL(link);
  return {
    path: url.pathname,
    pages: url.searchParams.getAll('page'),
    cursors: url.searchParams.getAll('cursor'),
    params: [...url.searchParams].filter(([name]) => name !== 'cursor' && name !== 'page').sort(),
  };
}

const sortedParams = (query: Query) => Object.entries(query).sort();
const withoutPage = (query: Query): Query => Object.fromEntries(Object.entries(query).filter(([name]) => name !== 'page'));

/** A link to a page by cursor: no page, one cursor, every other parameter of the query kept. */
function expectCursorLink(link: string | null, query: Query): void {
  expect(link).not.toBeNull();
  expect(partsOf(link as string)).toEqual({
    path: '/api/artikel',
    pages: [],
    cursors: [expect.stringMatching(CURSOR)],
    params: sortedParams(withoutPage(query)),
  });
}

/** The plain list URL (page 1): neither page nor cursor, every other parameter kept. */
function expectPlainLink(link: string | null, query: Query): void {
  expect(link).not.toBeNull();
  expect(partsOf(link as string)).toEqual({ path: '/api/artikel', pages: [], cursors: [], params: sortedParams(withoutPage(query)) });
}

/** Every page of a list by page number, as the store is now. */
async function numberedPages(app: TestApp, query: Query): Promise<ListAnswer[]> {
  const first = await getList(app, listPath({ ...query, page: '1' }));
  const pages = [first];
  for (let page = 2; page <= first.pagination.page_count; page += 1)
    pages.push(await getList(app, listPath({ ...query, page: String(page) })));
  return pages;
}

/** The pages a walk along one relation gives, from the answer at `start`, at most `max` of them. */
async function walk(app: TestApp, start: string, relation: 'next' | 'prev', max = 60): Promise<ListAnswer[]> {
  const pages = [await getList(app, start)];
  while (pages.at(-1)?.links[relation]) {
    if (pages.length >= max) throw new Error(`the walk along ${relation} from ${start} did not end within ${max} pages`);
    pages.push(await getList(app, pathOf(pages.at(-1)?.links[relation] as string)));
  }
  return pages;
}

/** A 400 in the contract's error body naming only the cursor, with a message that matches and no validator wording. */
function expectCursorRefused(answer: supertest.Response, message: RegExp): void {
  expect({ status: answer.status, contractError: isContractError(answer) }).toEqual({ status: 400, contractError: true });
  expect({
    name: answer.body.error.name,
    paths: (answer.body.error.details.errors as Array<{ path: string[] }> | undefined)?.map((error) => error.path),
    message: answer.body.error.message,
  }).toEqual({ name: 'ValidationError', paths: [['cursor']], message: expect.stringMatching(message) });
  expect(JSON.stringify(answer.body.error)).not.toMatch(VALIDATOR_WORDING);
}

/** The cursor a link carries. */
function cursorOf(link: string | null): string {
  const cursor = link === null ? null : new URL(link).searchParams.get('cursor');
  expect({ link, cursor }).toEqual({ link: expect.any(String), cursor: expect.stringMatching(CURSOR) });
  return cursor as string;
}

/** The same base64url text with the character in the middle of the part replaced by another one (every bit of it counts). */
function flippedInMiddle(part: string): string {
  const at = Math.floor(part.length / 2);
  const other = part[at] === 'A' ? 'g' : 'A';
  return `${part.slice(0, at)}${other}${part.slice(at + 1)}`;
}

describe('cursor paging of GET /api/artikel on a quiet store', () => {
  let app: TestApp;

  // 13 published articles, created oldest first, and a draft that matches every filter.
  // weddings: i not divisible by 3 (9); tag Outdoor: odd i (7); q "golden light": i % 4 != 1 (9);
  // all three: 7 and 11.
  beforeAll(async () => {
    app = await startStrapi();
    const weddings = await createCategory(app.strapi, 'Weddings', 'weddings');
    const landscapes = await createCategory(app.strapi, 'Landscapes', 'landscapes');
    for (let i = 1; i <= 13; i += 1) {
      await createArticle(app.strapi, {
        title: `Session number ${i}`,
        slug: `session-${i}`,
        category: i % 3 === 0 ? landscapes : weddings,
        tags: i % 2 === 1 ? 'Outdoor, Field' : 'Studio',
        content: i % 4 === 1 ? `Blue hour, number ${i}.` : `Golden light, number ${i}.`,
      });
    }
    await createArticle(app.strapi, {
      title: 'Session draft',
      slug: 'session-draft',
      category: weddings,
      tags: 'Outdoor',
      content: 'Golden light, not yet.',
      status: 'draft',
    });
  }, BOOT_MS);

  afterAll(async () => {
    await app.stop();
  });

  const WALKS: Array<[string, Query]> = [
    ['the whole list, 2 a page', { limit: '2' }],
    ['the whole list, 3 a page', { limit: '3' }],
    ['the whole list on one page', { limit: '13' }],
    ['the whole list at the default limit', {}],
    ['q=golden light, 2 a page', { q: 'golden light', limit: '2' }],
    ['kategori=Weddings, 3 a page (the last page full)', { kategori: 'Weddings', limit: '3' }],
    ['tag=OUTDOOR, 2 a page', { tag: 'OUTDOOR', limit: '2' }],
    ['q, kategori and tag together, 1 a page', { q: 'golden light', kategori: 'weddings', tag: 'outdoor', limit: '1' }],
  ];

  it.each([
    { limit: '2' },
    { limit: '2', page: '1' },
    { page: '3', limit: '2' },
    { q: 'golden light', kategori: 'weddings', tag: 'outdoor', limit: '1' },
    { tag: 'Outdoor', page: '2', limit: '2', kategori: 'weddings' },
  ] as Query[])(
    'a page-number answer (%o) links its next page by a cursor and no page, keeping q, kategori, tag and limit',
    async (query) => {
      const answer = await getList(app, listPath(query));
      expectCursorLink(answer.links.next, query);
      expect(answer.header.next).toBe(answer.links.next);
    },
  );

  it('a page-number answer in the middle links back by page number as before, and its next cursor leads to the page after it', async () => {
    const third = await getList(app, '/api/artikel?page=3&limit=2');
    expect(partsOf(third.links.prev as string)).toEqual({
      path: '/api/artikel',
      pages: ['2'],
      cursors: [],
      params: [['limit', '2']],
    });
    expectCursorLink(third.links.next, { limit: '2' });
    const fourth = await getList(app, pathOf(third.links.next as string));
    const numbered = await getList(app, '/api/artikel?page=4&limit=2');
    expect({ slugs: fourth.slugs, pagination: fourth.pagination }).toEqual({ slugs: numbered.slugs, pagination: numbered.pagination });
    expect(fourth.slugs).toEqual(['session-7', 'session-6']);
  });

  it.each(WALKS)(
    'walking links.next from the first page of %s lists exactly what its page-number pages list, page by page',
    async (_label, query) => {
      const numbered = await numberedPages(app, query);
      const walked = await walk(app, listPath(query), 'next');
      expect(walked.map((page) => page.slugs)).toEqual(numbered.map((page) => page.slugs));
      for (const page of walked.slice(0, -1)) expectCursorLink(page.links.next, query);
      expect(walked.at(-1)?.links.next).toBeNull();
      // Every article once, the draft never.
      const seen = walked.flatMap((page) => page.slugs);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).not.toContain('session-draft');
      expect(seen).toHaveLength(numbered[0].pagination.total);
    },
  );

  it.each(WALKS)(
    'meta.pagination along a walk of %s counts the pages 1, 2, 3, … with the current total and page count',
    async (_label, query) => {
      const numbered = await numberedPages(app, query);
      const walked = await walk(app, listPath(query), 'next');
      expect(walked.map((page) => page.pagination)).toEqual(numbered.map((page) => page.pagination));
      expect(walked.map((page) => page.pagination.page)).toEqual(numbered.map((_page, index) => index + 1));
    },
  );

  it('meta.pagination of a cursor page counts what is published now: an article published after page 1 raises total and page_count', async () => {
    const category = await createCategory(app.strapi, 'Counted', 'counted');
    const created: string[] = [];
    try {
      for (const i of [1, 2, 3])
        created.push(await createArticle(app.strapi, { title: `Counted ${i}`, slug: `counted-${i}`, category, tags: 'Counted' }));
      const first = await getList(app, '/api/artikel?tag=counted&limit=1');
      expect(first.pagination).toEqual({ page: 1, limit: 1, total: 3, total_exact: true, page_count: 3 });
      created.push(await createArticle(app.strapi, { title: 'Counted 4', slug: 'counted-4', category, tags: 'Counted' }));
      expectCursorLink(first.links.next, { tag: 'counted', limit: '1' });
      const second = await getList(app, pathOf(first.links.next as string));
      // The newer article is before the walk's place: the page after counted-3 is counted-2.
      expect({ slugs: second.slugs, pagination: second.pagination }).toEqual({
        slugs: ['counted-2'],
        pagination: { page: 2, limit: 1, total: 4, total_exact: true, page_count: 4 },
      });
    } finally {
      for (const documentId of created) await app.strapi.documents(ARTICLE_UID).delete({ documentId });
    }
  });

  it.each(WALKS.filter(([, query]) => query.limit !== '13' && query.limit !== undefined))(
    'links.prev of a cursor page of %s is a backwards cursor, or the plain list URL back to page 1, and walking back returns the same pages',
    async (_label, query) => {
      const forward = await walk(app, listPath(query), 'next');
      expect(forward.length).toBeGreaterThanOrEqual(2);
      expect(forward[0].links.prev).toBeNull();
      expectPlainLink(forward[1].links.prev, query);
      for (const page of forward.slice(2)) expectCursorLink(page.links.prev, query);

      const back = await walk(app, pathOf(forward.at(-1)?.links.prev as string), 'prev');
      expect(back.map((page) => page.slugs)).toEqual(
        forward
          .slice(0, -1)
          .reverse()
          .map((page) => page.slugs),
      );
      expect(back.map((page) => page.pagination.page)).toEqual(
        forward
          .slice(0, -1)
          .reverse()
          .map((page) => page.pagination.page),
      );
      // Back on page 1 through the plain URL: nothing before it.
      expect(back.at(-1)?.links.prev).toBeNull();
      // From a page reached backwards, next goes forward again to the same page as before.
      if (back.length >= 2) {
        const again = await getList(app, pathOf(back[0].links.next as string));
        expect(again.slugs).toEqual(forward.at(-1)?.slugs);
      }
    },
  );

  it('the Link header of every page, walking forwards and back, holds exactly the links of the body', async () => {
    for (const query of [{ limit: '2' }, { kategori: 'weddings', tag: 'outdoor', limit: '1' }] as Query[]) {
      const forward = await walk(app, listPath(query), 'next');
      const back = await walk(app, pathOf(forward.at(-1)?.links.prev as string), 'prev');
      for (const page of [...forward, ...back]) expect(page.header).toEqual(page.links);
      expectCursorLink(forward[0].header.next, query);
    }
    // A list with one page has neither link nor header.
    const only = await app.api().get('/api/artikel?limit=50').expect(200);
    expect(only.body.links).toEqual({ next: null, prev: null });
    expect(only.headers.link).toBeUndefined();
  });

  it('a cursor beside page wins: the page is ignored, whichever comes first', async () => {
    const first = await getList(app, '/api/artikel?limit=2');
    const cursor = cursorOf(first.links.next);
    const plain = await getList(app, pathOf(first.links.next as string));
    for (const path of [
      `/api/artikel?limit=2&cursor=${cursor}&page=5`,
      `/api/artikel?page=1&limit=2&cursor=${cursor}`,
      `/api/artikel?page=7&cursor=${cursor}&limit=2`,
    ]) {
      const answer = await getList(app, path);
      expect({ slugs: answer.slugs, pagination: answer.pagination }).toEqual({ slugs: plain.slugs, pagination: plain.pagination });
      expect(answer.slugs).toEqual(['session-11', 'session-10']);
      expectCursorLink(answer.links.next, { limit: '2' });
      expectPlainLink(answer.links.prev, { limit: '2' });
    }
  });

  it('an empty cursor is the same as none: the first page, or the page that page names', async () => {
    const first = await getList(app, '/api/artikel?limit=2');
    const empty = await getList(app, '/api/artikel?limit=2&cursor=');
    expect({ slugs: empty.slugs, pagination: empty.pagination, prev: empty.links.prev }).toEqual({
      slugs: first.slugs,
      pagination: first.pagination,
      prev: null,
    });
    expectCursorLink(empty.links.next, { limit: '2' });
    const third = await getList(app, '/api/artikel?cursor=&limit=2&page=3');
    const numbered = await getList(app, '/api/artikel?limit=2&page=3');
    expect({ slugs: third.slugs, pagination: third.pagination }).toEqual({ slugs: numbered.slugs, pagination: numbered.pagination });
  });

  const refusedCursors: Array<[string, (cursor: string) => string]> = [
    ['one character of the payload changed', (cursor) => `${flippedInMiddle(cursor.split('.')[0])}.${cursor.split('.')[1]}`],
    ['one character of the signature changed', (cursor) => `${cursor.split('.')[0]}.${flippedInMiddle(cursor.split('.')[1])}`],
    ['payload and signature swapped', (cursor) => cursor.split('.').reverse().join('.')],
    ['cut short by four characters', (cursor) => cursor.slice(0, -4)],
    ['cut to half its length', (cursor) => cursor.slice(0, Math.floor(cursor.length / 2))],
    ['cut to its payload alone', (cursor) => cursor.split('.')[0]],
    ['the payload without its signature but with the dot', (cursor) => `${cursor.split('.')[0]}.`],
    ['garbage: x', () => 'x'],
    ['garbage: not-a-cursor', () => 'not-a-cursor'],
    ['garbage: !!!', () => '!!!'],
    ['garbage: a lone dot', () => '.'],
    ['garbage: JSON', () => '{"page":2,"limit":2}'],
    ['garbage: base64url JSON with a made-up signature', () => `${Buffer.from('{"page":2}').toString('base64url')}.${'A'.repeat(22)}`],
    ['garbage: an unsigned payload of the issued form', (cursor) => `${cursor.split('.')[0]}.${'A'.repeat(cursor.split('.')[1].length)}`],
    ['garbage: spaces and a percent sign', () => 'a b%c'],
    ['over 1024 characters of base64url', () => 'A'.repeat(1025)],
    ['an issued cursor stretched past 1024 characters', (cursor) => `${cursor.split('.')[0]}${'A'.repeat(1025)}.${cursor.split('.')[1]}`],
  ];

  it.each(refusedCursors)(
    'a cursor %s is a 400 naming cursor: not one this service issued, start again from the first page and follow links.next',
    async (_label, make) => {
      // Garbage needs no issued cursor, so its refusal is checked even where none is issued.
      const cursor = make.length === 0 ? '' : cursorOf((await getList(app, '/api/artikel?limit=2')).links.next);
      const sent = make(cursor);
      expect(sent).not.toBe(cursor);
      const answer = await app.api().get('/api/artikel').query({ limit: '2', cursor: sent });
      expectCursorRefused(answer, NOT_ISSUED);
      expect(answer.body.error.message).toMatch(/first page/);
      expect(answer.body.error.message).toMatch(/links\.next/);
    },
  );

  const otherQueries: Array<[string, Query, Query]> = [
    ['another q', { q: 'golden light', limit: '2' }, { q: 'blue hour', limit: '2' }],
    ['a q with a word more', { q: 'golden light', limit: '2' }, { q: 'golden light number', limit: '2' }],
    ['no q where it had one', { q: 'golden light', limit: '2' }, { limit: '2' }],
    ['another kategori', { kategori: 'weddings', limit: '2' }, { kategori: 'landscapes', limit: '2' }],
    ['no kategori where it had one', { kategori: 'weddings', limit: '2' }, { limit: '2' }],
    ['another tag', { tag: 'outdoor', limit: '2' }, { tag: 'studio', limit: '2' }],
    ['a tag where it had none', { limit: '2' }, { tag: 'outdoor', limit: '2' }],
    ['another limit', { limit: '2' }, { limit: '3' }],
    [
      'another limit with the same filters',
      { q: 'golden light', kategori: 'weddings', tag: 'outdoor', limit: '1' },
      {
        q: 'golden light',
        kategori: 'weddings',
        tag: 'outdoor',
        limit: '2',
      },
    ],
  ];

  it.each(otherQueries)('a cursor used with %s is a 400 naming cursor: cursor belongs to another query', async (_label, given, used) => {
    const first = await getList(app, listPath(given));
    const cursor = cursorOf(first.links.next);
    const answer = await app.api().get(listPath({ ...used, cursor }));
    expectCursorRefused(answer, /cursor belongs to another query/);
  });

  it('a cursor keeps working when q, kategori and tag are written in another case and q with other spacing', async () => {
    const query = { q: 'golden light', kategori: 'weddings', tag: 'outdoor', limit: '1' };
    const first = await getList(app, listPath(query));
    const cursor = cursorOf(first.links.next);
    const second = await getList(app, listPath({ ...query, cursor }));
    const respelled = await getList(app, listPath({ q: '  GOLDEN   Light ', kategori: 'WEDDINGS', tag: 'Outdoor', limit: '1', cursor }));
    expect({ slugs: respelled.slugs, pagination: respelled.pagination }).toEqual({ slugs: second.slugs, pagination: second.pagination });
    expect(respelled.slugs).toEqual(['session-7']);
  });

  it('a client using only fetch() and the Link header rel="next" walks the list as the page numbers list it', async () => {
    const base = await app.baseUrl();
    for (const query of [{ limit: '3' }, { kategori: 'weddings', limit: '2' }] as Query[]) {
      const numbered = await numberedPages(app, query);
      const pages: string[][] = [];
      let url: string | null = `${base}${listPath(query)}`;
      while (url !== null) {
        if (pages.length > 20) throw new Error('the walk along the Link header did not end within 20 pages');
        const response = await fetch(url, { headers: { Accept: 'application/json' } });
        expect(response.status).toBe(200);
        const body = (await response.json()) as { data: Array<{ slug: string }> };
        pages.push(body.data.map((article) => article.slug));
        url = linkHeaderOf(response.headers.get('link') ?? undefined).next;
        if (url !== null) expectCursorLink(url, query);
      }
      expect(pages).toEqual(numbered.map((page) => page.slugs));
    }
  });

  it('?format=csv carries the Link header with a cursor, keeping format, and the next CSV page holds the next page of articles', async () => {
    const query = { format: 'csv', tag: 'outdoor', limit: '2' };
    const first = await app.api().get(listPath(query)).expect(200);
    expect(first.headers['content-type']).toMatch(/^text\/csv/);
    const links = linkHeaderOf(first.headers.link);
    expect(links.prev).toBeNull();
    expectCursorLink(links.next, query);

    const second = await app
      .api()
      .get(pathOf(links.next as string))
      .expect(200);
    expect(second.headers['content-type']).toMatch(/^text\/csv/);
    const [header, ...rows] = parseCsv(second.text) as string[][];
    const slugs = rows.map((row) => row[header.indexOf('slug')]);
    expect(slugs).toEqual((await getList(app, '/api/artikel?tag=outdoor&limit=2&page=2')).slugs);
    const secondLinks = linkHeaderOf(second.headers.link);
    expectPlainLink(secondLinks.prev, query);
    expectCursorLink(secondLinks.next, query);
  });
});

describe('cursors after a restart', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startStrapi();
    const category = await createCategory(app.strapi, 'Weddings', 'weddings');
    for (let i = 1; i <= 5; i += 1) await createArticle(app.strapi, { title: `Vow ${i}`, slug: `vow-${i}`, category, tags: 'Vows' });
  }, BOOT_MS);

  afterAll(async () => {
    await app.stop();
  });

  it(
    'a cursor still works after the service restarts on the same database (APP_KEYS unchanged)',
    async () => {
      const first = await getList(app, '/api/artikel?tag=vows&limit=2');
      expectCursorLink(first.links.next, { tag: 'vows', limit: '2' });
      const before = await getList(app, pathOf(first.links.next as string));
      const third = before.links.next;
      expectCursorLink(third, { tag: 'vows', limit: '2' });

      const { databaseFile } = app;
      await app.stop({ keepDatabase: true });
      app = await startStrapi({ databaseFile });

      const after = await getList(app, pathOf(first.links.next as string));
      expect({ slugs: after.slugs, pagination: after.pagination }).toEqual({ slugs: before.slugs, pagination: before.pagination });
      expect(after.slugs).toEqual(['vow-3', 'vow-2']);
      const last = await getList(app, pathOf(third as string));
      expect({ slugs: last.slugs, page: last.pagination.page, next: last.links.next }).toEqual({ slugs: ['vow-1'], page: 3, next: null });
    },
    2 * BOOT_MS,
  );
});

describe('cursor lifetime (ARTIKEL_CURSOR_SECONDS=1)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startStrapi({ env: { ARTIKEL_CURSOR_SECONDS: '1' } });
    const category = await createCategory(app.strapi, 'Weddings', 'weddings');
    for (let i = 1; i <= 3; i += 1) await createArticle(app.strapi, { title: `Toast ${i}`, slug: `toast-${i}`, category });
  }, BOOT_MS);

  afterAll(async () => {
    await app.stop();
  });

  it('a cursor works at once and, a few seconds later, is a 400 naming cursor: cursor expired', async () => {
    const first = await getList(app, '/api/artikel?limit=1');
    const cursor = cursorOf(first.links.next);
    const issued = Date.now();
    const fresh = await getList(app, `/api/artikel?limit=1&cursor=${cursor}`);
    expect(fresh.slugs).toEqual(['toast-2']);

    await sleep(2_500);
    // The lifetime is a lower bound: a service may round it up to whole seconds. Within 8 s of
    // issue it must have expired.
    let answer = await app.api().get(`/api/artikel?limit=1&cursor=${cursor}`);
    while (answer.status === 200 && Date.now() - issued < 8_000) {
      await sleep(250);
      answer = await app.api().get(`/api/artikel?limit=1&cursor=${cursor}`);
    }
    expectCursorRefused(answer, /cursor expired/);
    expect(answer.body.error.message).toMatch(/first page/);
  });
});
