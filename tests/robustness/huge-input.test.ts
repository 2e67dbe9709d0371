import { createArticle } from '../helpers/fixtures';
import { isContractError, reportFigure, storedRowCounts } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

let app: TestApp;

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: { name: 'Landscapes', slug: 'landscapes' } });
  for (let index = 1; index <= 30; index += 1) {
    await createArticle(app.strapi, {
      title: `Valley fog ${index}`,
      slug: `valley-fog-${index}`,
      category: app.categoryId,
      tags: 'Fog, Dawn',
      content: `Fog fills the valley at dawn, morning ${index}.`.repeat(20),
    });
  }
});

afterAll(async () => {
  await app.stop();
});

/** The answer and how long it took, for the figures in the output (speed goals live in bench/). */
async function timed<T>(request: () => Promise<T>): Promise<{ response: T; milliseconds: number }> {
  const started = process.hrtime.bigint();
  const response = await request();
  return { response, milliseconds: Number(process.hrtime.bigint() - started) / 1e6 };
}

/** The largest essay the tests store: 990,000 characters, a JSON body just under the 1 MB limit. */
function longEssay(): { content: string; body: string } {
  const content = 'Light and shadow. '.repeat(55_000).slice(0, 990_000);
  return { content, body: JSON.stringify({ title: 'A very long essay', category: 'Landscapes', content }) };
}

const postJson = (body: string) => app.api().post('/api/artikel').set(app.auth()).set('Content-Type', 'application/json').send(body);

// The long essay, the 31st article: posted by its own test or, when that test has not run, by the
// helper below (each test can run alone: npx jest <file> -t '<name>').
let essaySlug: string | undefined;

/** The slug of the long essay. */
async function longEssaySlug(): Promise<string> {
  if (essaySlug === undefined) essaySlug = (await postJson(longEssay().body).expect(201)).body.data.slug as string;
  return essaySlug;
}

describe('slow or huge input', () => {
  it('refuses a 10,000-character q (one long word, thousands of words, one word repeated) with a 400 naming q, at once', async () => {
    const oneWord = 'a'.repeat(10_000);
    const manyWords = Array.from({ length: 2_000 }, (_unused, index) => `w${index.toString(36).padStart(4, '0')}`)
      .join(' ')
      .slice(0, 10_000);
    const repeated = `${'fog '.repeat(2_500)}valley dawn`.slice(0, 10_000);
    expect([oneWord.length, manyWords.length, repeated.length]).toEqual([10_000, 10_000, 10_000]);

    const figures: string[] = [];
    for (const [label, q] of [
      ['one word', oneWord],
      ['2,000 words', manyWords],
      ['repeated words', repeated],
    ]) {
      const refused = await timed(() => app.api().get('/api/artikel').query({ q }).expect(400));
      expect(isContractError(refused.response)).toBe(true);
      expect(refused.response.body.error.details.errors.map((error: { path: string[] }) => error.path)).toEqual([['q']]);
      figures.push(`${label} ${refused.milliseconds.toFixed(0)} ms`);
    }
    // The same words within the bounds are searched as usual.
    const within = await app.api().get('/api/artikel').query({ q: 'fog valley dawn' }).expect(200);
    expect(within.body.meta.pagination.total).toBe(30);
    reportFigure('10,000-character q refused', figures.join(', '));
  });

  it('stores a 1 MB body whole, and refuses one over the 1 MB limit with a 413 that stores nothing', async () => {
    const { content, body } = longEssay();
    expect(Buffer.byteLength(body)).toBeGreaterThan(990_000);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(1024 * 1024);

    const accepted = await timed(() => postJson(body).expect(201));
    essaySlug = accepted.response.body.data.slug;
    const read = await app.api().get(`/api/artikel/${accepted.response.body.data.slug}`).expect(200);
    expect(read.body.data.content).toBe(content);

    const before = await storedRowCounts(app.strapi);
    const tooLarge = JSON.stringify({ title: 'Too long', category: 'Landscapes', content: 'x'.repeat(1024 * 1024) });
    const refused = await timed(() => postJson(tooLarge).expect(413));
    expect(isContractError(refused.response)).toBe(true);
    expect(refused.response.body.error.name).toBe('PayloadTooLargeError');
    expect(await storedRowCounts(app.strapi)).toEqual(before);
    reportFigure(
      '1 MB body',
      `${Buffer.byteLength(body)} bytes stored whole in ${accepted.milliseconds.toFixed(0)} ms; ${Buffer.byteLength(tooLarge)} bytes refused with 413 in ${refused.milliseconds.toFixed(0)} ms`,
    );
  });

  it('serves a limit of 10^9 as 50 and a page of 10^9 as an empty page with correct meta', async () => {
    // 31 articles: the 30 made before all tests and the long essay.
    await longEssaySlug();
    const limit = await timed(() => app.api().get('/api/artikel?limit=1000000000').expect(200));
    expect(limit.response.body.data).toHaveLength(31);
    expect(limit.response.body.meta.pagination).toEqual({ page: 1, limit: 50, total: 31, total_exact: true, page_count: 1 });
    const page = await timed(() => app.api().get('/api/artikel?page=1000000000').expect(200));
    expect(page.response.body).toEqual({
      data: [],
      meta: { pagination: { page: 1_000_000_000, limit: 10, total: 31, total_exact: true, page_count: 4 } },
      links: { next: null, prev: expect.stringMatching(/page=4$/) },
    });
    reportFigure(
      'limit and page of 10^9',
      `limit ${limit.milliseconds.toFixed(0)} ms (served as 50), page ${page.milliseconds.toFixed(0)} ms (empty page)`,
    );
  });
});
