import fs from 'node:fs';
import path from 'node:path';
import { ARTICLE_UID, createArticle, createCategory } from '../helpers/fixtures';
import { answerProblems } from '../helpers/openapi-check';
import { startStrapi, type TestApp } from '../helpers/strapi';
import { createApiToken } from '../helpers/tokens';

/**
 * The recipes of docs/automation.md played against a real service: each tool's requests as the tool
 * sends them (its headers, its repeated query parameters) and its rule for stopping. The n8n
 * expressions and the Zapier code are taken from the Markdown file itself, so the page and this test
 * cannot drift apart. Requests go through Node's fetch(), the closest thing to these tools' clients;
 * every answer is still checked against the OpenAPI document, as the agent's are.
 */

const RECIPES = fs.readFileSync(path.resolve(__dirname, '..', '..', 'docs', 'automation.md'), 'utf8');

/** The text of one `## ` section of the recipes. */
function section(title: string): string {
  const found = RECIPES.split(/^## /m).find((part) => part.startsWith(`${title}\n`));
  if (found === undefined) throw new Error(`docs/automation.md has no section "## ${title}"`);
  return found;
}

/** The value (in backticks) of a row of the n8n section's settings tables. */
function n8nSetting(name: string): string {
  const match = new RegExp(`^\\| ${name} \\| \`([^\`]+)\``, 'm').exec(section('n8n'));
  if (match === null) throw new Error(`the n8n recipe has no "${name}" row`);
  return match[1];
}

type Scope = { $json?: unknown; $response?: Answer; $execution?: unknown; $itemIndex?: number };

/**
 * An n8n parameter holding expressions, as a function of what n8n gives them: one `{{ … }}` alone
 * gives its value as it is; text with `{{ … }}` parts gives a string. n8n's expressions are
 * JavaScript (these use none of n8n's own extensions), and one that throws at run time (reading a
 * property of undefined) gives null, as n8n's renderExpression does.
 */
function n8nExpression(field: string): (scope: Scope) => unknown {
  const parts = field.split(/(\{\{.*?\}\})/).filter((part) => part !== '');
  const values = parts.map((part) => {
    const expression = /^\{\{(.*)\}\}$/.exec(part);
    if (expression === null) return () => part;
    const run = new Function('$json', '$response', '$execution', '$itemIndex', `return (${expression[1]});`);
    return (scope: Scope) => {
      try {
        return run(scope.$json, scope.$response, scope.$execution, scope.$itemIndex) as unknown;
      } catch {
        return null;
      }
    };
  });
  return (scope) => (values.length === 1 ? values[0](scope) : values.map((value) => String(value(scope))).join(''));
}

/** The Zapier section's ```js block whose first line says this. */
function zapierCode(firstLine: string): string {
  const blocks = [...section('Zapier').matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
  const found = blocks.find((block) => block.split('\n')[0].includes(firstLine));
  if (found === undefined) throw new Error(`the Zapier recipe has no js block starting "${firstLine}"`);
  return found;
}

const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
  ...parameters: string[]
) => (...values: unknown[]) => Promise<unknown>;

/** Runs a Code by Zapier step as Zapier does: the code as the body of an async function of inputData. */
function runZapierCode(code: string, inputData: Record<string, string>, fetchFunction: typeof fetch): Promise<unknown> {
  return new AsyncFunction('inputData', 'fetch', code)(inputData, fetchFunction);
}

interface Summary {
  id: string;
  slug: string;
}
interface ListBody {
  data: Summary[];
  links: { next: string | null; prev: string | null };
}
interface ErrorBody {
  data: null;
  error: { status: number; name: string; message: string; details: { errors?: Array<{ path: string[]; message: string }> } };
}
interface Answer {
  statusCode: number;
  headers: Record<string, string>;
  body: unknown;
}

const contractProblems: string[] = [];

/** Checks an answer against the OpenAPI document the service publishes; the problems fail the test. */
async function checkAnswer(method: string, url: string, answer: Answer): Promise<void> {
  const found = await answerProblems(method, url, { status: answer.statusCode, body: answer.body, headers: answer.headers });
  contractProblems.push(...(found ?? []));
}

async function readAnswer(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: the text as it is.
  }
  return { statusCode: response.status, headers: Object.fromEntries(response.headers), body };
}

/** One request through Node's fetch(), its answer checked against the OpenAPI document. */
async function send(method: string, url: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const answer = await readAnswer(await fetch(url, { method, headers, body }));
  await checkAnswer(method, url, answer);
  return answer;
}

/** fetch() for a Code by Zapier step: records every URL, may change one first, checks every answer. */
function zapierFetch(urls: string[], change?: (url: URL, request: number) => void): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    change?.(url, urls.length);
    urls.push(url.href);
    const response = await fetch(url, init);
    await checkAnswer(init?.method ?? 'GET', url.href, await readAnswer(response.clone()));
    return response;
  };
}

/** A next URL whose cursor was changed on its way (one character of it), as a proxy or a copy might. */
function tamperCursor(url: URL): void {
  const cursor = url.searchParams.get('cursor') ?? '';
  const middle = Math.floor(cursor.length / 2);
  url.searchParams.set('cursor', `${cursor.slice(0, middle)}${cursor[middle] === 'A' ? 'B' : 'A'}${cursor.slice(middle + 1)}`);
}

/** A promise's outcome as a value, so a test can assert on a failure as on a result. */
async function settle<T>(promise: Promise<T>): Promise<{ value?: T; error?: Error & { statusCode?: number } }> {
  try {
    return { value: await promise };
  } catch (error) {
    return { error: error as Error };
  }
}

/** n8n's Accept for an HTTP Request node whose response format is detected (its default). */
const N8N_ACCEPT = 'application/json,text/html,application/xhtml+xml,application/xml,text/*;q=0.9, image/*;q=0.8, */*;q=0.7';

/** n8n 2.8, and the versions with the fix of n8n issue #23592 (pull request #27352). */
type N8nVersion = '2.8' | 'after #23592';

/**
 * The loop of n8n's HTTP Request node in Pagination Mode "Response Contains Next URL"
 * (requestWithAuthenticationPaginated in n8n-core, with HttpRequestV3's continue expression): the
 * first request is the node's URL with its query parameters; every later one is the Next URL
 * expression's value with the node's query parameters added to it again. After each answer n8n goes
 * on while its continue expression is true: `!(Complete Expression)` in n8n 2.8, with `|| a non-2xx
 * status` added after the fix of #23592 (Never Error off). It throws on a non-2xx answer only when it
 * would go on; when it stops, the run is a success and every page's body is an output item.
 */
async function n8nPaginate(options: {
  url: string;
  query: Record<string, string>;
  nextUrl: (scope: Scope) => unknown;
  /** The Complete Expression field as written, `{{ … }}`. */
  complete: string;
  n8n: N8nVersion;
  change?: (url: URL, request: number) => void;
}): Promise<{ pages: Answer[]; urls: string[] }> {
  const completion = options.complete.trim().slice(2, -2);
  const goOnWhen = n8nExpression(
    options.n8n === '2.8'
      ? `{{ !(${completion}) }}`
      : `{{ !(${completion}) || ($response.statusCode < 200 || $response.statusCode >= 300) }}`,
  );
  const pages: Answer[] = [];
  const urls: string[] = [];
  let goOn: boolean;
  do {
    const previous = pages.at(-1);
    const url = new URL(previous === undefined ? options.url : String(options.nextUrl({ $response: previous })));
    if (previous !== undefined) options.change?.(url, pages.length);
    for (const [name, value] of Object.entries(options.query)) url.searchParams.append(name, value);
    urls.push(url.href);
    const answer = await send('GET', url.href, { accept: N8N_ACCEPT });
    pages.push(answer);
    const failed = answer.statusCode < 200 || answer.statusCode >= 300;
    goOn = Boolean(goOnWhen({ $response: answer }));
    if (goOn && failed) {
      throw Object.assign(new Error(`${answer.statusCode} - "${JSON.stringify(answer.body)}"`), { statusCode: answer.statusCode });
    }
    if (pages.length > 50) throw new Error('the walk did not end after 50 pages');
  } while (goOn);
  return { pages, urls };
}

/**
 * Make's loop of docs/automation.md: Repeater → Get variable next_url → filter (not "done") →
 * HTTP Make a request (URL ifempty(next_url; first URL), Evaluate all states as errors) → Set
 * variable next_url = ifempty(links.next; "done") → Iterator over data.
 */
async function makePaginate(options: {
  firstUrl: string;
  repeats: number;
  change?: (url: URL, request: number) => void;
}): Promise<{ articles: Summary[]; urls: string[]; ended: boolean }> {
  const articles: Summary[] = [];
  const urls: string[] = [];
  let nextUrl = '';
  for (let repeat = 1; repeat <= options.repeats; repeat += 1) {
    if (nextUrl === 'done') continue;
    const url = new URL(nextUrl === '' ? options.firstUrl : nextUrl);
    if (nextUrl !== '') options.change?.(url, urls.length);
    urls.push(url.href);
    const answer = await send('GET', url.href, {});
    if (answer.statusCode >= 400) {
      throw Object.assign(new Error(`[${answer.statusCode}] ${(answer.body as ErrorBody).error?.message}`), {
        statusCode: answer.statusCode,
      });
    }
    const body = answer.body as ListBody;
    articles.push(...body.data);
    nextUrl = body.links.next || 'done';
  }
  return { articles, urls, ended: nextUrl === 'done' };
}

let app: TestApp;
let baseUrl: string;
/** The document ids of the 37 articles of the category `paging`, which the walks read. */
let pagingIds: string[];

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: true });
  baseUrl = await app.baseUrl();
  const paging = await createCategory(app.strapi, 'Paging', 'paging');
  pagingIds = [];
  for (let number = 1; number <= 37; number += 1) {
    pagingIds.push(await createArticle(app.strapi, { title: `Paging walk ${number}`, slug: `paging-walk-${number}`, category: paging }));
  }
}, 180_000);

afterAll(async () => {
  await app?.stop();
});

afterEach(() => {
  const problems = contractProblems.splice(0, contractProblems.length);
  if (problems.length > 0) throw new Error(`Answers that differ from the OpenAPI document:\n${problems.join('\n')}`);
});

/** How many articles (documents) carry one of these titles: each has exactly one draft row. */
async function articlesTitled(titles: string[]): Promise<number> {
  return app.strapi.db.query(ARTICLE_UID).count({ where: { title: { $in: titles }, publishedAt: null } });
}

/** Rows as a Google Sheets node gives them to the next node (the header is row 1). */
function sheetRows(count: number, first: number, label: string) {
  return Array.from({ length: count }, (_, index) => ({
    row_number: first + index,
    title: `${label} row ${first + index}: window light`,
    category: 'Studio',
    content: `Row ${first + index} of the sheet: a portrait by the window, "soft" light and one reflector.`,
    tags: `${label}, Recipes`,
  }));
}

type Row = ReturnType<typeof sheetRows>[number];

const bodyOf = (row: Row) => JSON.stringify({ title: row.title, category: row.category, content: row.content, tags: row.tags });

const idsOf = (pages: Answer[]) => pages.flatMap((page) => (page.body as ListBody).data?.map((article) => article.id) ?? []);

describe('n8n: publishing rows with the HTTP Request node', () => {
  /** One run of the node over the rows: n8n sends the items' requests at once. */
  const run = (rows: Row[], key: (row: Row, itemIndex: number) => string) =>
    Promise.all(
      rows.map((row, itemIndex) =>
        send(
          'POST',
          `${baseUrl}/api/artikel`,
          {
            accept: N8N_ACCEPT,
            authorization: `Bearer ${app.token}`,
            'content-type': 'application/json',
            'idempotency-key': key(row, itemIndex),
          },
          bodyOf(row),
        ),
      ),
    );

  it('re-runs 20 rows with keys from the data as replays: 20 articles, the same Location, Idempotent-Replayed: true', async () => {
    const keyOf = n8nExpression(/`Idempotency-Key` = `([^`]+)`/.exec(section('n8n'))?.[1] ?? '');
    const rows = sheetRows(20, 2, 'n8n');
    const key = (row: Row) => String(keyOf({ $json: row }));
    expect(rows.map(key)).toEqual(rows.map((row) => `blog-sheet-row-${row.row_number}`));

    const first = await run(rows, key);
    const again = await run(rows, key);

    expect(first.map((answer) => answer.statusCode)).toEqual(rows.map(() => 201));
    expect(first.map((answer) => answer.headers['idempotent-replayed'])).toEqual(rows.map(() => undefined));
    expect(again.map((answer) => answer.statusCode)).toEqual(rows.map(() => 201));
    expect(again.map((answer) => answer.headers['idempotent-replayed'])).toEqual(rows.map(() => 'true'));
    expect(again.map((answer) => answer.headers.location)).toEqual(first.map((answer) => answer.headers.location));
    expect(again.map((answer) => answer.body)).toEqual(first.map((answer) => answer.body));
    expect(new Set(first.map((answer) => answer.headers.location)).size).toBe(20);
    expect(first.map((answer) => answer.headers.location).filter((location) => /-\d+$/.test(location))).toEqual([]);
    expect(await articlesTitled(rows.map((row) => row.title))).toBe(20);
  });

  it('(why) a key made from the run, the old advice, publishes every row again on a re-run, with -2 slugs', async () => {
    const keyOf = n8nExpression('{{ $execution.id }}-{{ $itemIndex }}');
    const rows = sheetRows(3, 40, 'n8n-run-key');
    const first = await run(rows, (_row, itemIndex) => String(keyOf({ $execution: { id: '1041' }, $itemIndex: itemIndex })));
    const again = await run(rows, (_row, itemIndex) => String(keyOf({ $execution: { id: '1042' }, $itemIndex: itemIndex })));
    expect([...first, ...again].map((answer) => answer.statusCode)).toEqual([...rows, ...rows].map(() => 201));
    expect(again.map((answer) => answer.headers['idempotent-replayed'])).toEqual(rows.map(() => undefined));
    expect(again.map((answer) => answer.headers.location)).toEqual(first.map((answer) => `${answer.headers.location}-2`));
    expect(await articlesTitled(rows.map((row) => row.title))).toBe(6);
  });
});

describe('n8n: reading every article with Pagination "Response Contains Next URL"', () => {
  const walk = (n8n: N8nVersion, complete: string, change?: (url: URL, request: number) => void) =>
    n8nPaginate({
      url: `${baseUrl}/api/artikel`,
      // Send Query Parameters: n8n adds them to every next URL again.
      query: { kategori: 'paging', limit: '10' },
      nextUrl: n8nExpression(n8nSetting('Next URL')),
      complete,
      n8n,
      change,
    });

  it.each(['2.8', 'after #23592'] as const)(
    'collects all 37 articles exactly once (limit 10, the node’s parameters repeated on every next URL): n8n %s',
    async (n8n) => {
      const outcome = await settle(walk(n8n, n8nSetting('Complete Expression')));
      expect(outcome.error).toBeUndefined();
      const { pages, urls } = outcome.value ?? { pages: [], urls: [] };
      expect(pages.map((page) => page.statusCode)).toEqual([200, 200, 200, 200]);
      const ids = idsOf(pages);
      expect(ids).toHaveLength(37);
      expect([...ids].sort()).toEqual([...pagingIds].sort());
      // Every request after the first is links.next with the node's kategori and limit added again.
      for (const url of urls.slice(1)) {
        const { searchParams } = new URL(url);
        expect(searchParams.getAll('limit').length).toBeGreaterThanOrEqual(2);
        expect(new Set(searchParams.getAll('limit'))).toEqual(new Set(['10']));
        expect(searchParams.getAll('kategori').length).toBeGreaterThanOrEqual(2);
        expect(new Set(searchParams.getAll('kategori'))).toEqual(new Set(['paging']));
      }
    },
  );

  it.each(['2.8', 'after #23592'] as const)(
    'fails with the 400 instead of a success with part of the list when a next URL’s cursor was changed: n8n %s',
    async (n8n) => {
      const outcome = await settle(walk(n8n, n8nSetting('Complete Expression'), (url, request) => request === 1 && tamperCursor(url)));
      expect(outcome.value).toBeUndefined();
      expect(outcome.error?.statusCode).toBe(400);
      expect(outcome.error?.message).toMatch(/cursor is not one this service issued/);
    },
  );

  it.each(['{{ !$response.body.links.next }}', '{{ $response.statusCode >= 400 || !$response.body.links.next }}'])(
    '(why) the rule %s, true on an error answer, ends n8n 2.8’s walk as a success with 10 of 37 articles',
    async (rule) => {
      const outcome = await settle(walk('2.8', rule, (url, request) => request === 1 && tamperCursor(url)));
      expect(outcome.error).toBeUndefined();
      const pages = outcome.value?.pages ?? [];
      expect(pages.map((page) => page.statusCode)).toEqual([200, 400]);
      expect(idsOf(pages)).toHaveLength(10);
    },
  );
});

describe('Make: HTTP "Make a request"', () => {
  it('publishes rows with keys from the data and answers a re-run of the scenario with replays', async () => {
    const token = await createApiToken(app.strapi, 'full-access');
    const rows = sheetRows(5, 2, 'make');
    // Headers as the recipe sets them; Make's HTTP module sends no Accept of its own.
    const run = () =>
      Promise.all(
        rows.map((row) =>
          send(
            'POST',
            `${baseUrl}/api/artikel`,
            { Authorization: `Bearer ${token}`, 'Idempotency-Key': `sheet-${row.row_number}`, 'Content-Type': 'application/json' },
            bodyOf(row),
          ),
        ),
      );
    const first = await run();
    const again = await run();
    expect([...first, ...again].map((answer) => answer.statusCode)).toEqual([...rows, ...rows].map(() => 201));
    expect(again.map((answer) => answer.headers['idempotent-replayed'])).toEqual(rows.map(() => 'true'));
    expect(again.map((answer) => answer.headers.location)).toEqual(first.map((answer) => answer.headers.location));
    expect(await articlesTitled(rows.map((row) => row.title))).toBe(5);
  });

  it('reads all 37 articles exactly once along links.next, taken as it is', async () => {
    const outcome = await settle(makePaginate({ firstUrl: `${baseUrl}/api/artikel?kategori=paging&limit=10`, repeats: 10 }));
    expect(outcome.error).toBeUndefined();
    const { articles, urls, ended } = outcome.value ?? { articles: [], urls: [], ended: false };
    expect(ended).toBe(true);
    expect(urls).toHaveLength(4);
    expect(articles.map((article) => article.id).sort()).toEqual([...pagingIds].sort());
  });

  it('stops the scenario on the 400 of a changed cursor (Evaluate all states as errors)', async () => {
    const outcome = await settle(
      makePaginate({
        firstUrl: `${baseUrl}/api/artikel?kategori=paging&limit=10`,
        repeats: 10,
        change: (url, request) => request === 1 && tamperCursor(url),
      }),
    );
    expect(outcome.value).toBeUndefined();
    expect(outcome.error?.statusCode).toBe(400);
    expect(outcome.error?.message).toMatch(/cursor is not one this service issued/);
  });
});

describe('Zapier: the Code by Zapier steps of docs/automation.md, run as written', () => {
  it('publishes a row and reports the second run of the step as a replay of the first', async () => {
    const token = await createApiToken(app.strapi, 'full-access');
    const code = zapierCode('publish one row');
    const inputData = {
      baseUrl: `${baseUrl}/`,
      token,
      key: 'sheet-7',
      title: 'Zapier row 7: "quoted" light',
      category: 'Studio',
      content: 'A line with "quotes",\nand a second line.',
      tags: 'Zapier, Recipes',
    };
    const urls: string[] = [];
    const first = (await runZapierCode(code, inputData, zapierFetch(urls))) as Record<string, unknown>;
    const again = (await runZapierCode(code, inputData, zapierFetch(urls))) as Record<string, unknown>;
    expect(first).toEqual({
      replayed: false,
      location: expect.stringMatching(/^\/api\/artikel\/zapier-row-7/),
      id: expect.any(String),
      slug: expect.any(String),
    });
    expect(again).toEqual({ ...first, replayed: true });
    expect(await articlesTitled([inputData.title])).toBe(1);
  });

  it('fails the step on an error answer with the service’s message', async () => {
    const code = zapierCode('publish one row');
    const outcome = await settle(
      runZapierCode(
        code,
        { baseUrl, token: app.token, key: 'zapier-no-category', title: 'No category', content: 'Text.' },
        zapierFetch([]),
      ),
    );
    expect(outcome.error?.message).toMatch(/^POST answered 400: .*category is required/);
  });

  it('returns all 37 articles exactly once, following links.next', async () => {
    const urls: string[] = [];
    const outcome = await settle(
      runZapierCode(zapierCode('every published article'), { baseUrl, limit: '10', kategori: 'paging' }, zapierFetch(urls)),
    );
    expect(outcome.error).toBeUndefined();
    const result = outcome.value as { count: number; pages: number; articles: Summary[] };
    expect(result.count).toBe(37);
    expect(result.pages).toBe(4);
    expect(result.articles.map((article) => article.id).sort()).toEqual([...pagingIds].sort());
    expect(urls).toHaveLength(4);
  });

  it('fails the step on the 400 of a changed cursor instead of returning part of the list', async () => {
    const outcome = await settle(
      runZapierCode(
        zapierCode('every published article'),
        { baseUrl, limit: '10', kategori: 'paging' },
        zapierFetch([], (url, request) => request === 1 && tamperCursor(url)),
      ),
    );
    expect(outcome.value).toBeUndefined();
    expect(outcome.error?.message).toMatch(/answered 400: cursor is not one this service issued/);
  });
});
