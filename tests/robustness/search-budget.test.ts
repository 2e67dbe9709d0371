import { createArticle } from '../helpers/fixtures';
import { isContractError } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

/**
 * A search over its time budget (ARTIKEL_SEARCH_BUDGET_MS, here 1 ms: every search is over it) is
 * stopped and answered with a 503 that names the budget, and the service keeps answering.
 */
let app: TestApp;
let base: string;

beforeAll(async () => {
  app = await startStrapi({ category: true, env: { ARTIKEL_SEARCH_BUDGET_MS: '1' } });
  for (let n = 1; n <= 120; n += 1)
    await createArticle(app.strapi, {
      title: `Catatan studio ${n}`,
      slug: `catatan-studio-${n}`,
      category: app.categoryId,
      content: `Cahaya senja di pelabuhan, lensa tele, tripod dan kabut tipis. `.repeat(40),
    });
  base = await app.baseUrl();
}, 300_000);

afterAll(() => app?.stop());

it('stops a search over its budget with a 503 naming it, and answers the next requests', async () => {
  const response = await fetch(`${base}/api/artikel?q=a%20e%20i%20o%20u%20s%20t%20n&sort=relevance`);
  const answer = { status: response.status, body: (await response.json()) as { error: { message: string } } };
  expect(answer.status).toBe(503);
  expect(isContractError(answer)).toBe(true);
  expect(answer.body.error.message).toMatch(/longer than its budget of 1 ms/);
  expect((await fetch(`${base}/api/artikel/categories`)).status).toBe(200);
  expect((await fetch(`${base}/api/artikel/catatan-studio-3`)).status).toBe(200);
});
