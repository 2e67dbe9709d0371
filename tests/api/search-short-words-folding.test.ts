import { createArticle } from '../helpers/fixtures';
import { listPage, slugsOf } from '../helpers/list-pages';
import { startStrapi, type TestApp } from '../helpers/strapi';

/**
 * A word under three characters is looked for in the articles' text, in any case: on SQLite by
 * LIKE where that finds what folding the text finds, by the fold itself where it does not (a word
 * with a "k", which the Kelvin sign folds to, or ending in "i", which İ folds to). The same
 * articles on both stores, through Node's fetch() and supertest.
 */

let app: TestApp;

beforeAll(async () => {
  app = await startStrapi();
  await createArticle(app.strapi, { title: 'Potret keluarga BENİ', slug: 'dotted-i', content: 'Sesi di studio.' });
  // "O" and the Kelvin sign (U+212A): folded, "ok".
  await createArticle(app.strapi, { title: 'Lampu studio', slug: 'kelvin', content: 'Suhu warna O\u212A untuk kulit.' });
  await createArticle(app.strapi, { title: 'Kode lensa', slug: 'ascii-upper', content: 'Seri ZQ-7 dan 50% diskon.' });
  await createArticle(app.strapi, { title: 'Tanpa apa pun', slug: 'plain', content: 'Cahaya pagi.' });
}, 180_000);

afterAll(async () => {
  await app.stop();
});

const search = async (query: string): Promise<string[]> => slugsOf(await listPage(app, `q=${encodeURIComponent(query)}&limit=50`));

describe('short words in any case', () => {
  it('finds an ASCII word of two letters in any case, with % as an ordinary character', async () => {
    expect(await search('zq')).toEqual(['ascii-upper']);
    expect(await search('ZQ')).toEqual(['ascii-upper']);
    expect(await search('0%')).toEqual(['ascii-upper']);
    expect(await search('q_')).toEqual([]);
  });

  it('finds a word ending in "i" where İ folds to it, and a word with "k" where the Kelvin sign does', async () => {
    expect(await search('ni')).toEqual(['dotted-i']);
    expect(await search('ok')).toEqual(['kelvin']);
    expect(await search('OK')).toEqual(['kelvin']);
    // The same through supertest, as an automation tool's HTTP client sends it.
    const response = await app.api().get('/api/artikel').query({ q: 'ni' }).expect(200);
    expect(slugsOf(response.body)).toEqual(['dotted-i']);
  });

  it('ranks by the short word in the title first, beside an indexed word', async () => {
    expect(await search('kode zq')).toEqual(['ascii-upper']);
    const ranked = slugsOf(await listPage(app, `q=${encodeURIComponent('st')}&sort=relevance&limit=50`));
    // "st" is in the title of the lamp article ("studio") and only in the content of the family portrait.
    expect(ranked).toEqual(['kelvin', 'dotted-i']);
  });
});
