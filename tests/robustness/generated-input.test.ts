import fc from 'fast-check';
import { createArticle, totalStoredViews } from '../helpers/fixtures';
import { isContractError, reportFigure, storedRowCounts } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

const POST_RUNS = 700;
const QUERY_RUNS = 500;
const SLUG_RUNS = 100;

const FIELDS = [
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
];
const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'views',
  'id',
  'documentId',
  'published_at',
  'publishedAt',
  'createdBy',
  '',
  ' title',
  'TITLE',
  'title\u0000',
];
const METACHARACTERS = [
  "' OR 1=1 --",
  '"; DROP TABLE articles; --',
  "'); DELETE FROM categories; --",
  '%',
  '_',
  '%%__%',
  '\\',
  '\\%',
  '*',
  '"',
  'NEAR(a b)',
  'a OR b',
  '\u0000',
  '\u202e',
  '\ufeff',
  '🙂',
  '👨‍👩‍👧',
  'Z̤͔ͧ̑̓',
  'ﷺ',
  '\ud800',
  '   ',
  '',
  '\n\t',
  '<script>alert(1)</script>',
  'https://x.example/a.jpg',
  'published',
  'draft',
  'null',
  '[object Object]',
  '__proto__',
];

const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(...METACHARACTERS),
  fc.integer({ min: 1, max: 300 }).map((length) => 'x'.repeat(length)),
  fc.constantFrom(256, 1001, 5000, 100_000).map((length) => 'é'.repeat(length)),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileString },
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('a', '__proto__', 'constructor', '$eq'), hostileString, { maxKeys: 2 }),
);

const validBody = fc.record({
  title: fc.oneof(
    fc.constantFrom('Golden hour', 'Rain on the wedding day', '🙂🙂', "O'Brien's 50% _sale_"),
    fc.string({ minLength: 1, maxLength: 80 }).filter((title) => title.trim() !== ''),
  ),
  category: fc.oneof(
    fc.constantFrom('Weddings', 'weddings', 'WEDDINGS', 'Portraits'),
    fc.string({ minLength: 1, maxLength: 40 }).filter((name) => name.trim() !== ''),
  ),
  content: fc.oneof(
    fc.constantFrom('Plain text.', '# Markdown\n\n* item', '<p>HTML</p>'),
    fc.string({ minLength: 1, maxLength: 200 }).filter((content) => content.trim() !== ''),
  ),
});

type Mutation = { kind: 'drop'; key: string } | { kind: 'set'; key: string; value: unknown };
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('drop' as const), key: fc.constantFrom(...FIELDS) }),
  fc.record({
    kind: fc.constant('set' as const),
    key: fc.oneof(fc.constantFrom(...FIELDS, ...HOSTILE_KEYS), fc.string({ maxLength: 10 })),
    value: hostileValue,
  }),
);

/** JSON written by hand, so keys such as __proto__ reach the server as own keys. */
function serialize(entries: Array<[string, unknown]>): string {
  return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}`).join(',')}}`;
}

const postRequest = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({ base: validBody, mutations: fc.array(mutation, { maxLength: 3 }) }).map(({ base, mutations }) => {
      let entries: Array<[string, unknown]> = Object.entries(base);
      for (const change of mutations) {
        entries = change.kind === 'drop' ? entries.filter(([key]) => key !== change.key) : [...entries, [change.key, change.value]];
      }
      return { contentType: 'application/json', payload: serialize(entries) };
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      contentType: fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded'),
      payload: fc.constantFrom(
        '[]',
        '"text"',
        '42',
        'null',
        'true',
        '{',
        '{"title":}',
        '',
        '[{"title":"x"}]',
        'title=a&category=b&content=c',
        'title[__proto__][x]=1',
        '{"__proto__":{"polluted":1}}',
        '{"constructor":{"prototype":{"polluted":1}}}',
      ),
    }),
  },
);

const QUERY_KEYS = [
  'q',
  'kategori',
  'tag',
  'limit',
  'page',
  'Q',
  'sort',
  'status',
  'populate',
  'publicationState',
  'filters[title][$eq]',
  'filters[$or][0][slug][$contains]',
  '__proto__',
  '__proto__[polluted]',
  'constructor[prototype][polluted]',
  'pagination[pageSize]',
  'fields[0]',
  'locale',
  'q[]',
  'limit[]',
  'x'.repeat(300),
];
const NUMBERS = [
  '0',
  '-1',
  '1',
  '2',
  '10',
  '50',
  '51',
  '1e3',
  '1.5',
  '0x10',
  ' 3',
  '1000000000',
  '9007199254740991',
  '9007199254740993',
  '99999999999999999999',
];
const queryValue = fc.oneof(
  hostileString,
  fc.constantFrom(...NUMBERS),
  fc.constantFrom('golden', 'wedding', 'WEDDINGS', 'outdoor', 'gold hour', 'x'.repeat(3000)),
);
const queryString = fc
  .array(fc.tuple(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...QUERY_KEYS) }, fc.string({ maxLength: 8 })), queryValue), {
    maxLength: 4,
  })
  .map((pairs) => pairs.map(([key, value]) => `${percentEncode(key)}=${percentEncode(value)}`).join('&'));

/** Percent-encodes the UTF-8 bytes of any string, lone surrogates included (they become U+FFFD). */
function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).padStart(2, '0').toUpperCase()}`,
    )
    .join('');
}

let app: TestApp;
const tally = { requests: 0, byStatus: new Map<number, number>(), serverErrors: 0, storedByRejected: 0 };

function count(status: number): void {
  tally.requests += 1;
  tally.byStatus.set(status, (tally.byStatus.get(status) ?? 0) + 1);
  if (status >= 500) tally.serverErrors += 1;
}

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: { name: 'Weddings', slug: 'weddings' } });
  await createArticle(app.strapi, {
    title: 'Golden hour at the lake',
    slug: 'golden-hour',
    category: app.categoryId,
    tags: 'Wedding, Outdoor',
  });
});

afterAll(async () => {
  const statuses = [...tally.byStatus.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, times]) => `${status}×${times}`)
    .join(', ');
  reportFigure(
    'generated requests',
    `${tally.requests} (${statuses}); 5xx: ${tally.serverErrors}; rejected requests that stored something: ${tally.storedByRejected}`,
  );
  await app.stop();
});

afterEach(() => {
  expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
});

describe('generated bad input', () => {
  it(`answers ${POST_RUNS} generated POST bodies with a 201 or a contract 4xx, and a rejected one stores nothing`, async () => {
    await fc.assert(
      fc.asyncProperty(postRequest, async ({ contentType, payload }) => {
        const before = await storedRowCounts(app.strapi);
        const response = await app.api().post('/api/artikel').set(app.auth()).set('Content-Type', contentType).send(payload);
        count(response.status);
        const after = await storedRowCounts(app.strapi);
        if (response.status === 201) {
          const stored = await app.strapi.db.connection('articles').where({ document_id: response.body.data.id }).first();
          expect(stored).toBeDefined();
          return;
        }
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        expect(isContractError(response)).toBe(true);
        if (JSON.stringify(after) !== JSON.stringify(before)) tally.storedByRejected += 1;
        expect(after).toEqual(before);
      }),
      { numRuns: POST_RUNS, seed: 20261121 },
    );
  });

  it(`answers ${QUERY_RUNS} generated list queries with a 200 list or a contract 400`, async () => {
    await fc.assert(
      fc.asyncProperty(queryString, async (query) => {
        const response = await app.api().get(`/api/artikel?${query}`);
        count(response.status);
        if (response.status === 200) {
          expect(Array.isArray(response.body.data)).toBe(true);
          const { page, limit, total, page_count: pageCount } = response.body.meta.pagination;
          expect([page, limit, total, pageCount].every(Number.isSafeInteger)).toBe(true);
          expect(limit).toBeLessThanOrEqual(50);
          return;
        }
        // 431: the URL is over Node's 16 KB limit for a request head.
        expect([400, 431]).toContain(response.status);
        expect(isContractError(response)).toBe(true);
      }),
      { numRuns: QUERY_RUNS, seed: 20261122 },
    );
  });

  it(`answers ${SLUG_RUNS} generated slugs with the article or a contract 404, counting no view for a miss`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(hostileString, fc.constantFrom('golden-hour', 'GOLDEN-HOUR', 'golden-hour%', 'categories', 'latest')),
        async (slug) => {
          const viewsBefore = await totalStoredViews(app.strapi);
          const response = await app.api().get(`/api/artikel/${percentEncode(slug)}`);
          count(response.status);
          const viewsAfter = await totalStoredViews(app.strapi);
          if (response.status === 200) {
            expect(typeof response.body.data.slug === 'string' || Array.isArray(response.body.data)).toBe(true);
            return;
          }
          expect([400, 404, 431]).toContain(response.status);
          expect(isContractError(response)).toBe(true);
          expect(viewsAfter).toEqual(viewsBefore);
        },
      ),
      { numRuns: SLUG_RUNS, seed: 20261123 },
    );
  });
});
