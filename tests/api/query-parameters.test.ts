import { parse as parseCsv } from 'csv-parse/sync';
import { createArticleSchema } from '../../src/plugins/artikel/server/src/validation/create-article';
import { updateArticleSchema } from '../../src/plugins/artikel/server/src/validation/update-article';
import { storedRowCounts } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

// Repeated and malformed query parameters, and body fields of the wrong type (design of issue 37,
// "Repeated and malformed query parameters"): a parameter repeated with the same value counts once;
// with different values, as an array or as an object it is a 400 naming it; no message carries a
// validator's internal wording.

let app: TestApp;

/** The article every read of one article, and the PATCH and DELETE tests, aim at. */
const ARTICLE = 'light-in-the-studio';
const PATCH_TARGET = 'the-article-patch-tests-aim-at';
const DELETE_TARGET = 'the-article-delete-tests-aim-at';

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: true });
  // Oldest first; nine published articles, so a list by two has five pages (and cursors to follow).
  const articles = [
    { title: 'Light in the studio', category: 'Studio', tags: 'Light, Portrait' },
    { title: 'Rain on the wedding day', category: 'Weddings', tags: 'Rain, Wedding' },
    { title: 'One softbox is enough', category: 'Studio', tags: 'Light' },
    { title: 'Wedding portraits at dusk', category: 'Weddings', tags: 'Wedding, Light' },
    { title: 'Rain in the city', category: 'Studio', tags: 'Rain' },
    { title: 'Behind the backdrop', category: 'Studio', tags: 'Backstage' },
    { title: 'Lenses for weddings', category: 'Weddings', tags: 'Gear' },
    { title: 'The article PATCH tests aim at', category: 'Studio', tags: 'Target' },
    { title: 'The article DELETE tests aim at', category: 'Studio', tags: 'Target' },
  ];
  for (const article of articles) {
    await app
      .api()
      .post('/api/artikel')
      .set(app.auth())
      .send({ ...article, content: `${article.title}: a few sentences about it. Nothing more.` })
      .expect(201);
  }
}, 180_000);

afterAll(async () => {
  await app.stop();
});

// ---------------------------------------------------------------------------------------------
// Answers, and the one check every 4xx of this file goes through.

interface Answer {
  status: number;
  headers: Record<string, string | undefined>;
  body: unknown;
  text: string;
}

interface FieldError {
  path: string[];
  message: string;
  name: string;
}

interface ErrorBody {
  data: null;
  error: { status: number; name: string; message: string; details: { errors?: FieldError[] } };
}

/** What a validator says in its own words, which no message of this service may carry. */
const VALIDATOR_WORDING: Array<[string, RegExp]> = [
  ['a backtick', /`/],
  ["'final value'", /final value/i],
  ["'cannot be cast'", /cannot be cast/i],
  ["'${'", /\$\{/],
  ["'must be a `'", /must be a `/],
];

/** Every message of a 4xx (the error's and each field's), each with the validator wording it carries. */
function validatorWordingOf(body: ErrorBody): string[] {
  const messages = [body.error.message, ...(body.error.details.errors ?? []).map((error) => error.message)];
  return messages.flatMap((message) => {
    const found = VALIDATOR_WORDING.filter(([, pattern]) => pattern.test(message)).map(([what]) => what);
    // Cut short: a leaked message can echo the whole value it refused (150 repeats of a parameter).
    const shown = message.length > 160 ? `${message.slice(0, 160)}…` : message;
    return found.length === 0 ? [] : [`${found.join(', ')} in: ${shown}`];
  });
}

/**
 * Every answer this file receives: never a 5xx, and a 4xx is the contract's error body (data null,
 * error.status, name, message, details; a ValidationError's details.errors each with a path) whose
 * messages carry no validator wording.
 */
function received(request: string, answer: Answer): Answer {
  expect({ request, serverError: answer.status >= 500 ? answer.text.slice(0, 500) : null }).toEqual({ request, serverError: null });
  if (answer.status < 400) return answer;
  expect({ request, body: answer.body }).toEqual({
    request,
    body: {
      data: null,
      error: { status: answer.status, name: expect.any(String), message: expect.any(String), details: expect.any(Object) },
    },
  });
  const body = answer.body as ErrorBody;
  if (body.error.name === 'ValidationError') {
    const errors = body.error.details.errors;
    expect({ request, errors }).toEqual({ request, errors: expect.any(Array) });
    for (const error of errors ?? []) {
      expect({ request, error }).toEqual({
        request,
        error: { path: expect.any(Array), message: expect.any(String), name: 'ValidationError' },
      });
    }
  }
  expect({ request, validatorWording: validatorWordingOf(body) }).toEqual({ request, validatorWording: [] });
  return answer;
}

function answerOf(response: { status: number; headers: unknown; body: unknown; text: string }): Answer {
  return {
    status: response.status,
    headers: response.headers as Record<string, string | undefined>,
    body: response.body,
    text: response.text,
  };
}

async function get(path: string): Promise<Answer> {
  return received(`GET ${path}`, answerOf(await app.api().get(path)));
}

async function post(query: string, body: unknown): Promise<Answer> {
  const path = `/api/artikel${query}`;
  return received(
    `POST ${path} ${JSON.stringify(body)}`,
    answerOf(
      await app
        .api()
        .post(path)
        .set(app.auth())
        .send(body as object),
    ),
  );
}

async function patch(slug: string, query: string, body: unknown): Promise<Answer> {
  const path = `/api/artikel/${slug}${query}`;
  return received(
    `PATCH ${path} ${JSON.stringify(body)}`,
    answerOf(
      await app
        .api()
        .patch(path)
        .set(app.auth())
        .send(body as object),
    ),
  );
}

async function remove(slug: string, query: string): Promise<Answer> {
  const path = `/api/artikel/${slug}${query}`;
  return received(`DELETE ${path}`, answerOf(await app.api().delete(path).set(app.auth())));
}

/** The same request as a browser's fetch() sends it, through Node's own fetch (undici), not supertest. */
async function browserFetch(method: string, pathAndQuery: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${await app.baseUrl()}${pathAndQuery}`, {
    method,
    headers: {
      Accept: '*/*',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json', ...app.auth() }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const headers = Object.fromEntries(response.headers.entries());
  const json = /[/+]json\b/.test(headers['content-type'] ?? '');
  return received(`fetch ${method} ${pathAndQuery}`, { status: response.status, headers, body: json ? JSON.parse(text) : undefined, text });
}

// ---------------------------------------------------------------------------------------------
// Comparing answers.

const CURSOR_VALUE = /([?&]cursor=)[^&#>"'\s]+/g;

/**
 * A cursor may carry when it was issued, so two answers a second apart may hold different ones: they
 * are compared as `cursor=<cursor>`, and the lists tests follow both to the same next page instead.
 */
function withoutCursorValues(text: string): string {
  return text.replace(CURSOR_VALUE, '$1<cursor>');
}

/** An answer's JSON without view counts (every read of an article adds one), cursors masked. */
function comparableJson(value: unknown): unknown {
  if (typeof value === 'string') return withoutCursorValues(value);
  if (Array.isArray(value)) return value.map(comparableJson);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'views')
      .map(([key, inner]) => [key, comparableJson(inner)]),
  );
}

function csvWithoutViews(text: string): string[][] {
  const [header = [], ...rows] = parseCsv(text) as string[][];
  const views = header.indexOf('views');
  return [header, ...rows].map((row) => row.filter((_cell, index) => index !== views));
}

function mediaTypeOf(answer: Answer): string {
  return (answer.headers['content-type'] ?? '').split(';')[0].trim();
}

/** Status, media type, Link header and content of an answer, as two answers to the same question share them. */
function comparable(answer: Answer) {
  const type = mediaTypeOf(answer);
  const content = /[/+]json$/.test(type)
    ? comparableJson(JSON.parse(answer.text))
    : type === 'text/csv'
      ? csvWithoutViews(answer.text)
      : withoutCursorValues(answer.text);
  return {
    status: answer.status,
    type,
    link: answer.headers.link === undefined ? null : withoutCursorValues(answer.headers.link),
    content,
  };
}

function errorMessageOf(answer: Answer): string | null {
  return answer.status >= 400 ? ((answer.body as ErrorBody | undefined)?.error?.message ?? answer.text) : null;
}

/** The repeated request is answered exactly as the request that sent each parameter once. */
function expectSameAnswer(once: { request: string; answer: Answer }, repeated: { request: string; answer: Answer }): void {
  // Status and message first: a short difference when the repeated request is refused.
  expect({ request: repeated.request, status: repeated.answer.status, message: errorMessageOf(repeated.answer) }).toEqual({
    request: repeated.request,
    status: once.answer.status,
    message: errorMessageOf(once.answer),
  });
  expect(comparable(repeated.answer)).toEqual(comparable(once.answer));
}

async function expectSameAnswerTo(oncePath: string, repeatedPath: string): Promise<{ once: Answer; repeated: Answer }> {
  const once = await get(oncePath);
  const repeated = await get(repeatedPath);
  expectSameAnswer({ request: oncePath, answer: once }, { request: repeatedPath, answer: repeated });
  return { once, repeated };
}

function nextOf(answer: Answer): string | null {
  return (answer.body as { links?: { next?: string | null } } | undefined)?.links?.next ?? null;
}

function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** Both lists' links.next lead to the same next page (the cursor each carries works alike). */
async function expectSameNextPage(once: Answer, repeated: Answer): Promise<void> {
  const [onceNext, repeatedNext] = [nextOf(once), nextOf(repeated)];
  if (onceNext === null || repeatedNext === null) return;
  const [onceFollowed, repeatedFollowed] = [await get(pathOf(onceNext)), await get(pathOf(repeatedNext))];
  expectSameAnswer({ request: onceNext, answer: onceFollowed }, { request: repeatedNext, answer: repeatedFollowed });
}

function expectValidationError(request: string, answer: Answer, name: string, message: string): void {
  expect({ request, status: answer.status, body: answer.body }).toEqual({
    request,
    status: 400,
    body: {
      data: null,
      error: { status: 400, name: 'ValidationError', message, details: { errors: [{ path: [name], message, name: 'ValidationError' }] } },
    },
  });
}

const differentValuesMessage = (name: string, first: string, second: string) =>
  `${name} was sent with different values (${JSON.stringify(first)} and ${JSON.stringify(second)}): send it once`;

const objectMessage = (name: string) => `${name} must be one value, not an object (${name}[…])`;

/** A 400 whose only field error names the parameter (or body field), and whose message names it too. */
function expectRefusalNaming(request: string, answer: Answer, name: string): void {
  const body = answer.body as ErrorBody | undefined;
  expect({ request, status: answer.status, paths: body?.error?.details?.errors?.map((error) => error.path) }).toEqual({
    request,
    status: 400,
    paths: [[name]],
  });
  expect({ request, message: body?.error.message }).toEqual({ request, message: expect.stringContaining(name) });
}

/** Everything a write could have stored: the row counts of every table a write touches, and every article row. */
async function storedState() {
  return {
    counts: await storedRowCounts(app.strapi),
    articles: (await app.strapi.db.connection('articles').select('*').orderBy('id')) as unknown[],
  };
}

const query = (...pairs: Array<[string, string]>) => pairs.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');

// ---------------------------------------------------------------------------------------------
// The GET endpoints and their parameters.

/** What an empty value (`name=`) means, as docs/api.md and the design say. */
type EmptyMeaning = 'refused' | 'ignored';

interface Parameter {
  name: string;
  /** Two valid values, each answered on its own. */
  values: () => Promise<[string, string]>;
  empty: EmptyMeaning;
  /** Other parameters every request of this one carries (`limit=2&` for page and cursor). */
  base?: string;
}

interface Endpoint {
  path: string;
  parameters: Parameter[];
  /** Where an answer names its own URL (a feed's self link), the URL without an empty parameter. */
  selfUrlWithout?: (text: string, name: string) => string;
}

const fixed =
  (first: string, second: string): (() => Promise<[string, string]>) =>
  async () => [first, second];

/** The cursor in a list answer's links.next (the design: every list's next link carries one). */
function cursorIn(request: string, answer: Answer): string {
  const next = nextOf(answer);
  const cursor = next === null ? null : new URL(next).searchParams.get('cursor');
  expect({ request, next, cursor }).toEqual({ request, next, cursor: expect.stringMatching(/^.+$/) });
  return cursor as string;
}

/** Two cursors the service issued for the list by two: its first page's next, and the next of that. */
async function cursorsOfTheListByTwo(): Promise<[string, string]> {
  const first = await get('/api/artikel?limit=2');
  const firstCursor = cursorIn('GET /api/artikel?limit=2', first);
  const secondPath = pathOf(nextOf(first) as string);
  return [firstCursor, cursorIn(`GET ${secondPath}`, await get(secondPath))];
}

const feedSelfUrlWithout = (format: string) => (text: string, name: string) =>
  text.replaceAll(`/feed/${format}?${name}=`, `/feed/${format}`);

const ENDPOINTS: Endpoint[] = [
  {
    path: '/api/artikel',
    parameters: [
      { name: 'q', values: fixed('wedding', 'rain'), empty: 'ignored' },
      { name: 'kategori', values: fixed('studio', 'weddings'), empty: 'ignored' },
      { name: 'tag', values: fixed('light', 'rain'), empty: 'ignored' },
      { name: 'limit', values: fixed('2', '3'), empty: 'refused' },
      { name: 'page', values: fixed('2', '3'), empty: 'refused', base: 'limit=2&' },
      { name: 'format', values: fixed('json', 'csv'), empty: 'refused' },
      { name: 'sort', values: fixed('newest', 'views'), empty: 'refused' },
      { name: 'cursor', values: cursorsOfTheListByTwo, empty: 'ignored', base: 'limit=2&' },
    ],
  },
  { path: '/api/artikel/latest', parameters: [{ name: 'format', values: fixed('json', 'csv'), empty: 'refused' }] },
  { path: `/api/artikel/${ARTICLE}`, parameters: [{ name: 'format', values: fixed('json', 'md'), empty: 'refused' }] },
  ...['rss', 'atom', 'json'].map((format): Endpoint => ({
    path: `/api/artikel/feed/${format}`,
    parameters: [{ name: 'kategori', values: fixed('studio', 'weddings'), empty: 'ignored' }],
    selfUrlWithout: feedSelfUrlWithout(format),
  })),
];

/**
 * An answer without the parts that name the URL it was asked with (a list's paging links keep the query
 * as it was sent; a feed's self link is the request's URL), for comparing `name=` with no `name` at all.
 */
function withoutOwnUrl(answer: Answer, endpoint: Endpoint, name: string) {
  const { link: _link, ...rest } = comparable(answer);
  let content = rest.content;
  if (typeof content === 'object' && content !== null && !Array.isArray(content)) {
    const { links: _links, ...page } = content as Record<string, unknown>;
    content = page;
  }
  const selfUrlWithout = endpoint.selfUrlWithout;
  if (selfUrlWithout !== undefined) {
    content = typeof content === 'string' ? selfUrlWithout(content, name) : JSON.parse(selfUrlWithout(JSON.stringify(content), name));
  }
  return { ...rest, content };
}

const cases = ENDPOINTS.flatMap((endpoint) =>
  endpoint.parameters.map((parameter) => ({ endpoint, parameter, label: `${endpoint.path} ${parameter.name}` })),
);

describe.each(cases)('GET $label', ({ endpoint, parameter }) => {
  const { name, base = '' } = parameter;
  const at = (rest: string) => `${endpoint.path}?${base}${rest}`;
  const withoutRest = base === '' ? endpoint.path : `${endpoint.path}?${base.slice(0, -1)}`;

  it(`counts ${name} repeated with the same value once: the same status and body as ${name} sent once`, async () => {
    const [value] = await parameter.values();
    const { once, repeated } = await expectSameAnswerTo(at(query([name, value])), at(query([name, value], [name, value])));
    if (endpoint.path === '/api/artikel') await expectSameNextPage(once, repeated);
  });

  it(`refuses ${name} sent with two different values with a 400 naming ${name} and both values`, async () => {
    const [first, second] = await parameter.values();
    const request = at(query([name, first], [name, second]));
    expectValidationError(request, await get(request), name, differentValuesMessage(name, first, second));
  });

  it(`refuses ${name}[]=…&${name}[]=… (two values as an array) with the same 400 naming ${name} and both values`, async () => {
    const [first, second] = await parameter.values();
    const request = at(query([`${name}[]`, first], [`${name}[]`, second]));
    expectValidationError(request, await get(request), name, differentValuesMessage(name, first, second));
  });

  it(`refuses ${name}[x]=1 (an object) with a 400 saying ${name} must be one value`, async () => {
    const request = at(`${name}[x]=1`);
    expectValidationError(request, await get(request), name, objectMessage(name));
  });

  if (parameter.empty === 'refused') {
    it(`refuses an empty ${name}= with a 400 naming ${name}`, async () => {
      const request = at(`${name}=`);
      expectRefusalNaming(request, await get(request), name);
    });
  } else {
    it(`answers an empty ${name}= as if ${name} had not been sent`, async () => {
      const request = at(`${name}=`);
      const [plain, empty] = [await get(withoutRest), await get(request)];
      expect({ request, status: empty.status, message: errorMessageOf(empty) }).toEqual({
        request,
        status: plain.status,
        message: errorMessageOf(plain),
      });
      expect({ request, ...withoutOwnUrl(empty, endpoint, name) }).toEqual({ request, ...withoutOwnUrl(plain, endpoint, name) });
    });
  }

  it(`answers a bare ${name} (no "=") without a 5xx, and names ${name} if it refuses it`, async () => {
    const request = at(name);
    const answer = await get(request);
    if (answer.status >= 400) expectRefusalNaming(request, answer, name);
  });
});

describe('GET /api/artikel with many repeats', () => {
  it('counts limit=2 sent 150 times (past the query parser’s 100 array items) once, as limit=2', async () => {
    const repeated = `/api/artikel?${Array.from({ length: 150 }, () => 'limit=2').join('&')}`;
    const { once, repeated: answer } = await expectSameAnswerTo('/api/artikel?limit=2', repeated);
    await expectSameNextPage(once, answer);
  });

  it('refuses limit sent 150 times with one different value among them with a 400 naming both values', async () => {
    const request = `/api/artikel?${Array.from({ length: 150 }, (_item, index) => (index === 120 ? 'limit=3' : 'limit=2')).join('&')}`;
    expectValidationError(request, await get(request), 'limit', differentValuesMessage('limit', '2', '3'));
  });
});

describe('GET endpoints that take no query parameter', () => {
  const PATHS = [
    '/api/artikel/categories',
    '/api/artikel/sitemap.xml',
    '/api/artikel/sitemap/1',
    '/api/artikel/openapi.json',
    '/api/artikel/llms.txt',
    '/api/artikel/docs.html',
    '/api/artikel/docs/redoc.standalone.js',
    '/api/artikel/preview/some-preview-token',
  ];

  it.each(PATHS)(
    '%s refuses limit sent once, repeated, with two values, as an array, as an object, empty or bare with a 400 naming limit',
    async (path) => {
      const once = await get(`${path}?limit=2`);
      expectRefusalNaming(`${path}?limit=2`, once, 'limit');
      const repeated = await get(`${path}?limit=2&limit=2`);
      expectSameAnswer({ request: `${path}?limit=2`, answer: once }, { request: `${path}?limit=2&limit=2`, answer: repeated });
      for (const request of [
        `${path}?limit=2&limit=3`,
        `${path}?limit[]=2&limit[]=3`,
        `${path}?limit[x]=1`,
        `${path}?limit=`,
        `${path}?limit`,
      ]) {
        expectRefusalNaming(request, await get(request), 'limit');
      }
    },
  );
});

// ---------------------------------------------------------------------------------------------
// The query of the writes: POST and PATCH take dry_run, DELETE takes nothing.

/** A write's answer without what differs from one write to the next (ids, times, and the JSON-LD's dates). */
function withoutStorageFacts(article: Record<string, unknown>) {
  const { id: _id, published_at: _published, updated_at: _updated, created_at: _created, json_ld: jsonLd, ...rest } = article;
  const {
    datePublished: _datePublished,
    dateModified: _dateModified,
    ...posting
  } = JSON.parse(String(jsonLd ?? '{}')) as Record<string, unknown>;
  return comparableJson({ ...rest, json_ld: posting });
}

const dataOf = (answer: Answer) => (answer.body as { data: Record<string, unknown> }).data;

describe('POST /api/artikel?dry_run', () => {
  const body = (title: string) => ({ title, category: 'Studio', content: `${title}: checked, perhaps stored.` });

  it('counts dry_run=true repeated once: the same dry-run answer as dry_run=true sent once, and nothing stored', async () => {
    const before = await storedState();
    const once = await post('?dry_run=true', body('A dry run asked twice'));
    const repeated = await post('?dry_run=true&dry_run=true', body('A dry run asked twice'));
    expect({ status: repeated.status, message: errorMessageOf(repeated) }).toEqual({ status: 200, message: null });
    expect(once.status).toBe(200);
    expect((repeated.body as { meta: unknown }).meta).toEqual({ dry_run: true });
    expect(withoutStorageFacts(dataOf(repeated))).toEqual(withoutStorageFacts(dataOf(once)));
    expect(await storedState()).toEqual(before);
  });

  it('counts dry_run=false repeated once: the article is created as with dry_run=false sent once', async () => {
    const before = await storedRowCounts(app.strapi);
    const once = await post('?dry_run=false', body('A real post asked twice'));
    const afterOnce = await storedRowCounts(app.strapi);
    const repeated = await post('?dry_run=false&dry_run=false', body('A real post asked twice'));
    expect({ status: repeated.status, message: errorMessageOf(repeated) }).toEqual({ status: 201, message: null });
    expect(once.status).toBe(201);
    const afterRepeated = await storedRowCounts(app.strapi);
    expect(afterRepeated.articles - afterOnce.articles).toBe(afterOnce.articles - before.articles);
    const {
      slug: _slug,
      related: _related,
      json_ld: _jsonLd,
      ...created
    } = withoutStorageFacts(dataOf(repeated)) as Record<string, unknown>;
    const {
      slug: _onceSlug,
      related: _onceRelated,
      json_ld: _onceJsonLd,
      ...createdOnce
    } = withoutStorageFacts(dataOf(once)) as Record<string, unknown>;
    expect(created).toEqual(createdOnce);
  });

  it.each([
    ['dry_run=true&dry_run=false', differentValuesMessage('dry_run', 'true', 'false')],
    ['dry_run=false&dry_run=true', differentValuesMessage('dry_run', 'false', 'true')],
    ['dry_run[]=true&dry_run[]=false', differentValuesMessage('dry_run', 'true', 'false')],
    ['dry_run[x]=1', objectMessage('dry_run')],
  ])('refuses ?%s with a 400 naming dry_run, and stores nothing', async (sent, message) => {
    const before = await storedState();
    const request = `POST /api/artikel?${sent}`;
    expectValidationError(request, await post(`?${sent}`, body(`Refused for ${sent}`)), 'dry_run', message);
    expect(await storedState()).toEqual(before);
  });

  it('refuses an empty dry_run= (it takes true or false) with a 400 naming dry_run, and stores nothing', async () => {
    const before = await storedState();
    expectRefusalNaming('POST /api/artikel?dry_run=', await post('?dry_run=', body('Refused for an empty dry_run')), 'dry_run');
    expect(await storedState()).toEqual(before);
  });
});

describe('PATCH /api/artikel/{slug}?dry_run', () => {
  it('counts dry_run=true repeated once: the same dry-run answer as dry_run=true sent once, and the article unchanged', async () => {
    const before = await storedState();
    const change = { summary: 'A summary only a dry run sees.' };
    const once = await patch(PATCH_TARGET, '?dry_run=true', change);
    const repeated = await patch(PATCH_TARGET, '?dry_run=true&dry_run=true', change);
    expect({ status: repeated.status, message: errorMessageOf(repeated) }).toEqual({ status: 200, message: null });
    expect(once.status).toBe(200);
    expect((repeated.body as { meta: unknown }).meta).toEqual({ dry_run: true });
    expect(withoutStorageFacts(dataOf(repeated))).toEqual(withoutStorageFacts(dataOf(once)));
    expect(await storedState()).toEqual(before);
  });

  it('counts dry_run=false repeated once: the article changes as with dry_run=false sent once', async () => {
    const once = await patch(PATCH_TARGET, '?dry_run=false', { meta_keywords: 'first' });
    expect(once.status).toBe(200);
    const repeated = await patch(PATCH_TARGET, '?dry_run=false&dry_run=false', { meta_keywords: 'second' });
    expect({ status: repeated.status, message: errorMessageOf(repeated) }).toEqual({ status: 200, message: null });
    expect(dataOf(repeated).meta_keywords).toBe('second');
    expect((await get(`/api/artikel/${PATCH_TARGET}`)).body).toMatchObject({ data: { meta_keywords: 'second' } });
  });

  it.each([
    ['dry_run=true&dry_run=false', differentValuesMessage('dry_run', 'true', 'false')],
    ['dry_run[]=false&dry_run[]=true', differentValuesMessage('dry_run', 'false', 'true')],
    ['dry_run[x]=1', objectMessage('dry_run')],
  ])('refuses ?%s with a 400 naming dry_run, and leaves the article as it was', async (sent, message) => {
    const before = await storedState();
    const request = `PATCH /api/artikel/${PATCH_TARGET}?${sent}`;
    expectValidationError(request, await patch(PATCH_TARGET, `?${sent}`, { title: `Changed by ${sent}` }), 'dry_run', message);
    expect(await storedState()).toEqual(before);
  });

  it('refuses an empty dry_run= with a 400 naming dry_run, and leaves the article as it was', async () => {
    const before = await storedState();
    const request = `PATCH /api/artikel/${PATCH_TARGET}?dry_run=`;
    expectRefusalNaming(request, await patch(PATCH_TARGET, '?dry_run=', { title: 'Changed by an empty dry_run' }), 'dry_run');
    expect(await storedState()).toEqual(before);
  });
});

describe('DELETE /api/artikel/{slug} query', () => {
  it('refuses dry_run (which DELETE does not take) sent once, repeated, with two values, as an array, as an object or empty with a 400 naming it, and deletes nothing', async () => {
    const before = await storedState();
    for (const sent of [
      'dry_run=true',
      'dry_run=true&dry_run=true',
      'dry_run=true&dry_run=false',
      'dry_run[]=true&dry_run[]=false',
      'dry_run[x]=1',
      'dry_run=',
    ]) {
      expectRefusalNaming(`DELETE /api/artikel/${DELETE_TARGET}?${sent}`, await remove(DELETE_TARGET, `?${sent}`), 'dry_run');
    }
    expect(await storedState()).toEqual(before);
    expect((await get(`/api/artikel/${DELETE_TARGET}`)).status).toBe(200);
  });
});

// ---------------------------------------------------------------------------------------------
// Body fields of the wrong type.

/** Every field of POST's and PATCH's body, as docs/api.md lists them. */
const BODY_FIELDS = [
  'title',
  'slug',
  'summary',
  'content',
  'category',
  'tags',
  'cover_image_url',
  'author',
  'meta_title',
  'meta_description',
  'meta_keywords',
  'status',
  'publish_at',
];

// docs/api.md: POST's values are all strings; PATCH's fields have POST's types, "" clears an
// optional field, so null is no way to clear one: it is a wrong type like the others.
const WRONG_TYPES: Array<[string, unknown]> = [
  ['a number', 42],
  ['a boolean', true],
  ['an array', ['Light', 'Portrait']],
  ['an object', { value: 'Light' }],
  ['null', null],
];

const bodyCases = BODY_FIELDS.flatMap((field) => WRONG_TYPES.map(([kind, value]) => ({ field, kind, value })));

describe('body fields of the wrong type', () => {
  it('covers every field POST’s and PATCH’s validation lists', () => {
    expect([...BODY_FIELDS].sort()).toEqual(Object.keys(createArticleSchema.fields).sort());
    expect([...BODY_FIELDS].sort()).toEqual(Object.keys(updateArticleSchema.fields).sort());
  });

  it.each(bodyCases)(
    'POST refuses $field sent as $kind with a 400 whose path names $field, and stores nothing',
    async ({ field, value }) => {
      const before = await storedState();
      const body = { title: 'A post with a wrong type', category: 'Studio', content: 'Never stored.', [field]: value };
      const answer = await post('', body);
      expectRefusalNaming(`POST /api/artikel ${JSON.stringify(body)}`, answer, field);
      expect(await storedState()).toEqual(before);
    },
  );

  it.each(bodyCases)(
    'PATCH refuses $field sent as $kind with a 400 whose path names $field, and leaves the article as it was',
    async ({ field, value }) => {
      const before = await storedState();
      const body = { [field]: value };
      const answer = await patch(PATCH_TARGET, '', body);
      expectRefusalNaming(`PATCH /api/artikel/${PATCH_TARGET} ${JSON.stringify(body)}`, answer, field);
      expect(await storedState()).toEqual(before);
    },
  );
});

// ---------------------------------------------------------------------------------------------
// A browser's client: the same requests through Node's own fetch() (URLSearchParams encodes the brackets).

describe('the same requests from a browser’s fetch()', () => {
  const search = (pairs: Array<[string, string]>) => `?${new URLSearchParams(pairs).toString()}`;

  it('counts tag repeated with the same value (URLSearchParams.append twice) once, as tag sent once', async () => {
    const once = await browserFetch('GET', `/api/artikel${search([['tag', 'light']])}`);
    const repeated = await browserFetch(
      'GET',
      `/api/artikel${search([
        ['tag', 'light'],
        ['tag', 'light'],
      ])}`,
    );
    expectSameAnswer({ request: 'fetch ?tag=light', answer: once }, { request: 'fetch ?tag=light&tag=light', answer: repeated });
  });

  it('refuses tag with two different values with a 400 naming tag and both values', async () => {
    const request = `/api/artikel${search([
      ['tag', 'light'],
      ['tag', 'rain'],
    ])}`;
    expectValidationError(`fetch ${request}`, await browserFetch('GET', request), 'tag', differentValuesMessage('tag', 'light', 'rain'));
  });

  it('refuses limit%5B%5D=2&limit%5B%5D=3 (an encoded array) with a 400 naming limit and both values', async () => {
    const request = `/api/artikel${search([
      ['limit[]', '2'],
      ['limit[]', '3'],
    ])}`;
    expectValidationError(`fetch ${request}`, await browserFetch('GET', request), 'limit', differentValuesMessage('limit', '2', '3'));
  });

  it('refuses format%5Bx%5D=csv (an encoded object) on latest with a 400 saying format must be one value', async () => {
    const request = `/api/artikel/latest${search([['format[x]', 'csv']])}`;
    expectValidationError(`fetch ${request}`, await browserFetch('GET', request), 'format', objectMessage('format'));
  });

  it('refuses a POST with dry_run=true&dry_run=false with a 400 naming dry_run, and stores nothing', async () => {
    const before = await storedState();
    const request = `/api/artikel${search([
      ['dry_run', 'true'],
      ['dry_run', 'false'],
    ])}`;
    const answer = await browserFetch('POST', request, { title: 'Posted from a browser', category: 'Studio', content: 'Never stored.' });
    expectValidationError(`fetch POST ${request}`, answer, 'dry_run', differentValuesMessage('dry_run', 'true', 'false'));
    expect(await storedState()).toEqual(before);
  });

  it('refuses a POST whose tags are an array with a 400 naming tags, and stores nothing', async () => {
    const before = await storedState();
    const answer = await browserFetch('POST', '/api/artikel', {
      title: 'Tags from a form',
      category: 'Studio',
      content: 'Never stored.',
      tags: ['a', 'b'],
    });
    expectRefusalNaming('fetch POST /api/artikel (tags an array)', answer, 'tags');
    expect(await storedState()).toEqual(before);
  });

  it('refuses a PATCH whose title is a number with a 400 naming title, and leaves the article as it was', async () => {
    const before = await storedState();
    const answer = await browserFetch('PATCH', `/api/artikel/${PATCH_TARGET}`, { title: 7 });
    expectRefusalNaming(`fetch PATCH /api/artikel/${PATCH_TARGET} (title a number)`, answer, 'title');
    expect(await storedState()).toEqual(before);
  });
});
