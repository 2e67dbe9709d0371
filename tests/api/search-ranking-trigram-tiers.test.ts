import { createArticle } from '../helpers/fixtures';
import { listPage, slugsOf, type ListBody } from '../helpers/list-pages';
import { startStrapi, type TestApp } from '../helpers/strapi';

// sort=relevance of a query the trigram index scores (a word holding a letter outside ASCII) with
// a word that has forms ("potret": memotret): the order of q alone, ranked from the index alone,
// is the order of the same query within a tag every match carries, ranked through the articles.
// Some articles hold every trigram of "kafé" but not the word ("kaf … afé"), where FTS5 had a
// query of the title tiers lose occurrences of a word's forms (a phrase's miss under a NOT).

let app: TestApp;

beforeAll(async () => {
  app = await startStrapi({ token: true });
  // Created oldest first.
  const articles: Array<[slug: string, title: string, content: string]> = [
    ['terpisah-a', 'Cerita satu', 'Kaf dan afé memotret.'],
    ['dua-potret', 'Cerita dua', 'Kafé potret potret.'],
    ['satu-memotret', 'Cerita tiga', 'Kafé memotret.'],
    ['judul', 'Kafé potret', 'Kafé.'],
    ['terpisah-b', 'Lain', 'Kaf afé potret memotret.'],
    ['keduanya', 'Cerita enam', 'Kafé potret memotret.'],
  ];
  for (const [slug, title, content] of articles) await createArticle(app.strapi, { title, slug, content, tags: 'Kafe' });
}, 180_000);

afterAll(async () => {
  await app.stop();
});

const list = (query: string): Promise<ListBody> => listPage(app, query);

describe('sort=relevance of a query scored by the trigram index', () => {
  it('orders the matches as the same query within a tag all of them carry, the title first', async () => {
    const q = encodeURIComponent('kafé potret');
    const alone = await list(`q=${q}&sort=relevance&limit=50`);
    const withinTag = await list(`q=${q}&sort=relevance&tag=kafe&limit=50`);
    expect(slugsOf(alone)[0]).toBe('judul');
    expect([...slugsOf(alone)].sort()).toEqual(['dua-potret', 'judul', 'keduanya', 'satu-memotret']);
    expect(slugsOf(alone)).toEqual(slugsOf(withinTag));
  });

  it('orders a query the word index scores (its title tiers apart) as within the tag too', async () => {
    const q = encodeURIComponent('cerita potret');
    const alone = await list(`q=${q}&sort=relevance&limit=50`);
    expect([...slugsOf(alone)].sort()).toEqual(['dua-potret', 'keduanya', 'satu-memotret', 'terpisah-a']);
    expect(slugsOf(alone)).toEqual(slugsOf(await list(`q=${q}&sort=relevance&tag=kafe&limit=50`)));
  });

  it('serves pages within the articles with the word in their title as within the tag too', async () => {
    const pages: string[] = [];
    for (const page of [1, 2, 3]) {
      const alone = slugsOf(await list(`q=cerita&sort=relevance&limit=2&page=${page}`));
      expect(alone).toEqual(slugsOf(await list(`q=cerita&sort=relevance&tag=kafe&limit=2&page=${page}`)));
      pages.push(...alone);
    }
    expect([...pages].sort()).toEqual(['dua-potret', 'keduanya', 'satu-memotret', 'terpisah-a']);
  });
});
