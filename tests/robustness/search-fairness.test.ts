// @timing: that another client's search is served while one client floods (run one at a time, see jest.config.js)
import { createArticle } from '../helpers/fixtures';
import { reportFigure } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

/**
 * Searches take turns per client (ARTIKEL_SEARCH_READERS=1 here, one at a time; each client may
 * have ARTIKEL_SEARCH_QUEUE=2 waiting): a client that floods gets 429s with Retry-After for what
 * does not fit its line, and another client's search is answered meanwhile. Clients are told
 * apart by their address behind a trusted proxy.
 */
let app: TestApp;
let base: string;

beforeAll(async () => {
  app = await startStrapi({
    category: true,
    env: { ARTIKEL_SEARCH_READERS: '1', ARTIKEL_SEARCH_QUEUE: '2', TRUST_PROXY: 'true', ARTIKEL_SEARCH_BUDGET_MS: '30000' },
  });
  for (let n = 1; n <= 150; n += 1)
    await createArticle(app.strapi, {
      title: `Kabut pagi ${n}`,
      slug: `kabut-pagi-${n}`,
      category: app.categoryId,
      content: `Lembah, kabut, fajar, lensa tele, tripod, bukit, sungai, senja dan angin. `.repeat(60),
    });
  base = await app.baseUrl();
}, 300_000);

afterAll(() => app?.stop());

const search = (address: string, words: string) =>
  fetch(`${base}/api/artikel?q=${encodeURIComponent(words)}&sort=relevance`, { headers: { 'X-Forwarded-For': address } });

it("refuses what does not fit a flooding client's line with a 429, and serves another client meanwhile", async () => {
  // Distinct each time, so no search is answered from the read cache.
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const flood = Array.from({ length: 10 }, (_, n) => search('203.0.113.10', `${letters[n]} ${letters[n + 1]} e i o u kabut`));
  const started = Date.now();
  const other = await search('203.0.113.20', 'lembah kabut');
  const otherMs = Date.now() - started;
  const answers = await Promise.all(flood);
  const statuses = answers.map((answer) => answer.status);
  reportFigure('search fairness', `flooding client: ${statuses.join(' ')}; the other client's search: ${other.status} in ${otherMs} ms`);
  expect(other.status).toBe(200);
  expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(1);
  const refused = answers.filter((answer) => answer.status === 429);
  expect(refused.length).toBeGreaterThanOrEqual(1);
  for (const answer of refused) expect(answer.headers.get('retry-after')).toBe('1');
  expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
});
