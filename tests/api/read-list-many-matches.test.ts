import { createArticle, createCategory } from '../helpers/fixtures';
import { startStrapi, type TestApp } from '../helpers/strapi';

// A page is read by walking the articles newest first, testing each, where that tests fewer
// articles than the filter matches (about the page's end × articles / matches); otherwise through
// its matches, sorted. This archive has filters on both sides of that line, and a large category
// whose last pages cross it.
const COMMON = 130;
const RARE = 7;

let app: TestApp;
// Every published article's slug, newest first.
let newestFirst: string[];

beforeAll(async () => {
  app = await startStrapi();
  const landscapes = await createCategory(app.strapi, 'Landscapes', 'landscapes');
  const studio = await createCategory(app.strapi, 'Studio', 'studio');
  const created: string[] = [];
  for (let index = 0; index < COMMON + RARE; index += 1) {
    const rare = index % Math.floor((COMMON + RARE) / RARE) === 0 && created.filter((slug) => slug.startsWith('rare')).length < RARE;
    const slug = `${rare ? 'rare' : 'common'}-${String(index).padStart(4, '0')}`;
    await createArticle(app.strapi, {
      title: rare ? `Fjord at dusk ${index}` : `Meadow in fog ${index}`,
      slug,
      category: rare ? studio : landscapes,
      tags: rare ? 'Fjord, Meadow' : 'Meadow',
      content: rare ? 'Cold water under a violet sky.' : 'Soft grass and a meadow of mist.',
    });
    created.push(slug);
  }
  newestFirst = [...created].reverse();
}, 600_000);

afterAll(async () => {
  await app.stop();
});

const pageOf = async (query: Record<string, string>) =>
  (await app.api().get('/api/artikel').query(query).expect(200)).body as {
    data: Array<{ slug: string }>;
    meta: { pagination: { total: number } };
  };

describe('list pages of many and of few matches', () => {
  it.each([
    ['a word in most articles', { q: 'meadow' }, (slug: string) => slug.length > 0],
    ['a word in a few', { q: 'fjord' }, (slug: string) => slug.startsWith('rare')],
    ['a tag on every article', { tag: 'meadow' }, (slug: string) => slug.length > 0],
    ['a tag on a few', { tag: 'fjord' }, (slug: string) => slug.startsWith('rare')],
    ['a large category', { kategori: 'landscapes' }, (slug: string) => slug.startsWith('common')],
    ['a small category', { kategori: 'studio' }, (slug: string) => slug.startsWith('rare')],
  ])('gives %s newest first, with its total, on the first and a later page', async (_name, filter, matches) => {
    const expected = newestFirst.filter(matches);
    const first = await pageOf({ ...filter, limit: '5' });
    expect(first.data.map((article) => article.slug)).toEqual(expected.slice(0, 5));
    expect(first.meta.pagination.total).toBe(expected.length);
    const later = await pageOf({ ...filter, limit: '5', page: '2' });
    expect(later.data.map((article) => article.slug)).toEqual(expected.slice(5, 10));
  });

  it('gives every page of a large category, the early ones walked and the last ones read through its matches, each article once in order', async () => {
    const expected = newestFirst.filter((slug) => slug.startsWith('common'));
    const pages = Math.ceil(expected.length / 5);
    const seen: string[] = [];
    for (let page = 1; page <= pages; page += 1)
      seen.push(...(await pageOf({ kategori: 'landscapes', limit: '5', page: String(page) })).data.map((article) => article.slug));
    expect(seen).toEqual(expected);
    expect((await pageOf({ kategori: 'landscapes', limit: '5', page: String(pages + 1) })).data).toEqual([]);
  });
});
