import { createArticle, createCategory } from '../helpers/fixtures';
import { eventually } from '../helpers/eventually';
import { currentStore } from '../helpers/store';
import { startStrapi, type TestApp } from '../helpers/strapi';

/**
 * A search past the counting bound says "at least the bound" without counting every match: on
 * PostgreSQL a word of a frequent term is known to have at least that term's number of articles
 * when the frequent terms were last counted, less every article removed from the index since. The
 * lower bound must stay true as articles go and change: once a frequent word's articles are
 * deleted or edited down below the bound, its total is exact again. (On SQLite the index counts
 * every search itself; the answers are the same.)
 */
const BOUND = 3;
const FOG = 6;

let app: TestApp;
let fogSlugs: string[];

interface Pagination {
  total: number;
  total_exact: boolean;
}

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', env: { ARTIKEL_EXACT_TOTAL: String(BOUND) } });
  const hills = await createCategory(app.strapi, 'Bukit', 'bukit');
  fogSlugs = [];
  for (let index = 0; index < FOG; index += 1) {
    const slug = `kabut-lembah-${index}`;
    await createArticle(app.strapi, { title: `Kabut lembah ${index}`, slug, category: hills });
    fogSlugs.push(slug);
  }
}, 120_000);

afterAll(async () => {
  await app.stop();
});

const searched = async (word: string): Promise<Pagination> =>
  ((await app.api().get('/api/artikel').query({ q: word }).expect(200)).body as { meta: { pagination: Pagination } }).meta.pagination;

/** PostgreSQL: the number of articles the frequent terms say the term was in when last counted (null: not frequent). */
const countedFor = async (term: string): Promise<number | null> => {
  const row = (await app.strapi.db.connection('artikel_search_frequent_terms').where({ term }).first()) as { docs: number } | undefined;
  return row === undefined ? null : Number(row.docs);
};

/**
 * Searches the word, and on PostgreSQL waits until the frequent terms that search asked for in the
 * background say the word's term is in `articles`.
 */
async function searchedUntilCounted(word: string, articles: number): Promise<Pagination> {
  const answer = await searched(word);
  if (currentStore() === 'postgres') {
    expect(
      await eventually(
        () => countedFor(word),
        (docs) => docs === articles,
        { withinMs: 30_000 },
      ),
    ).toBe(articles);
  }
  return answer;
}

describe('a frequent word’s lower bound follows the articles that go', () => {
  it('says at least the bound for a word in more articles, before and after the frequent terms are counted', async () => {
    expect(await searchedUntilCounted('kabut', FOG)).toEqual(expect.objectContaining({ total: BOUND, total_exact: false }));
    expect(await searched('kabut')).toEqual(expect.objectContaining({ total: BOUND, total_exact: false }));
  });

  it('counts exactly again once deletions and an edit leave the word in fewer articles than the bound', async () => {
    await searchedUntilCounted('kabut', FOG);
    // Two of six deleted through the API: still more than the bound.
    for (const slug of fogSlugs.slice(0, 2)) await app.api().delete(`/api/artikel/${slug}`).set(app.auth()).expect(204);
    expect(await searched('kabut')).toEqual(expect.objectContaining({ total: BOUND, total_exact: false }));
    // Two more deleted: two left, within the bound.
    for (const slug of fogSlugs.slice(2, 4)) await app.api().delete(`/api/artikel/${slug}`).set(app.auth()).expect(204);
    expect(await searched('kabut')).toEqual(expect.objectContaining({ total: 2, total_exact: true }));
    // An edit re-indexes an article (its entry removed and written again): still the two.
    await app.api().patch(`/api/artikel/${fogSlugs[4]}`).set(app.auth()).send({ summary: 'Kabut turun ke lembah pagi ini.' }).expect(200);
    expect(await searched('kabut')).toEqual(expect.objectContaining({ total: 2, total_exact: true }));
    // The number counted before the deletions is still stored; what was removed since is subtracted from it.
    if (currentStore() === 'postgres') expect(await countedFor('kabut')).toBe(FOG);
  });
});
