import { withSqliteFile } from '../helpers/store';
import { createArticle } from '../helpers/fixtures';
import { listPage, slugsOf, type ListBody } from '../helpers/list-pages';
import { startStrapi, type TestApp } from '../helpers/strapi';

// Issue 33: how sort=relevance orders a word found inside longer words, on both stores. The order
// is scored where a word is a word or begins one (SQLite: a word index beside the trigram one;
// PostgreSQL: each entry's tsvector): such an article is scored; one holding the word only inside
// a longer word is found (the set is the contract's) and listed after the scored ones, newest first.

let app: TestApp;
const TWINS = 20;

beforeAll(async () => {
  app = await startStrapi({ token: true });
  // Created oldest first.
  await createArticle(app.strapi, { title: 'Fokus manual', slug: 'judul', content: 'Cincin di lensa.' });
  await createArticle(app.strapi, { title: 'Catatan A', slug: 'dalam-lama', content: 'Lensa dengan autofokus cepat.' });
  await createArticle(app.strapi, {
    title: 'Catatan F',
    slug: 'dalam-sering',
    content: 'Autofokus, autofokus, autofokus dan autofokus lagi.',
  });
  await createArticle(app.strapi, { title: 'Catatan E', slug: 'dalam-baru', content: 'Kamera autofokus baru.' });
  await createArticle(app.strapi, { title: 'Catatan B', slug: 'kata-sekali', content: 'Fokus pada mata.' });
  await createArticle(app.strapi, { title: 'Catatan C', slug: 'kata-sering', content: 'Fokusnya tajam, fokus lagi, fokus terus.' });
  await createArticle(app.strapi, { title: 'Catatan D', slug: 'tanpa', content: 'Tidak ada kata itu.' });
  // Twenty articles that score alike for "kembar": a page's end falls among more equal scores than
  // one read past it holds.
  for (let twin = 1; twin <= TWINS; twin += 1) {
    await createArticle(app.strapi, { title: 'Sama', slug: `kembar-${twin}`, content: 'Foto kembar di studio.' });
  }
}, 180_000);

afterAll(async () => {
  await app.stop();
});

const list = (query: string): Promise<ListBody> => listPage(app, query);

describe('sort=relevance over words found inside longer words', () => {
  it('finds the same articles as newest first, the title first, then by occurrences', async () => {
    const newest = await list('q=fokus&limit=50');
    const relevant = await list('q=fokus&sort=relevance&limit=50');
    expect(relevant.meta.pagination).toEqual(newest.meta.pagination);
    expect(relevant.meta.pagination.total).toBe(6);
    expect([...slugsOf(relevant)].sort()).toEqual([...slugsOf(newest)].sort());
    // "Fokusnya" begins with the word: scored. "autofokus" holds it inside: after the scored, newest first.
    expect(slugsOf(relevant)).toEqual(['judul', 'kata-sering', 'kata-sekali', 'dalam-baru', 'dalam-sering', 'dalam-lama']);
  });

  it('walks every match exactly once along links.next, across the scored and the unscored ones', async () => {
    const whole = slugsOf(await list('q=fokus&sort=relevance&limit=50'));
    for (const limit of [1, 2, 4]) {
      const seen: string[] = [];
      let next: string | null = `${await app.baseUrl()}/api/artikel?q=fokus&sort=relevance&limit=${limit}`;
      while (next !== null) {
        const response: Response = await fetch(next);
        expect(response.status).toBe(200);
        const body = (await response.json()) as ListBody;
        expect(body.meta.pagination.total).toBe(6);
        seen.push(...slugsOf(body));
        next = body.links.next;
      }
      expect(seen).toEqual(whole);
    }
  });

  it('scores a word holding punctuation by the trigram index, with its total', async () => {
    const body = await list(`q=${encodeURIComponent('fokus,')}&sort=relevance`);
    expect(slugsOf(body)).toEqual(['dalam-sering']);
    expect(body.meta.pagination.total).toBe(1);
    const past = await list(`q=${encodeURIComponent('fokus,')}&sort=relevance&page=2`);
    expect(past.data).toEqual([]);
    expect(past.meta.pagination.total).toBe(1);
  });

  it('orders equal scores newest first, also where more of them lie past a page than it reads', async () => {
    const newestFirst = Array.from({ length: TWINS }, (_, index) => `kembar-${TWINS - index}`);
    expect(slugsOf(await list('q=kembar&sort=relevance&limit=50'))).toEqual(newestFirst);
    expect(slugsOf(await list('q=kembar&sort=relevance&limit=1'))).toEqual(['kembar-20']);
    expect(slugsOf(await list('q=kembar&sort=relevance&limit=2&page=3'))).toEqual(['kembar-16', 'kembar-15']);
  });

  it('lists a page past the last one empty, with the total', async () => {
    const body = await list('q=fokus&sort=relevance&limit=4&page=3');
    expect(body.data).toEqual([]);
    expect(body.meta.pagination).toEqual({ page: 3, limit: 4, total: 6, total_exact: true, page_count: 2 });
  });

  it('keeps the scores in step with writes: an article rewritten without the word leaves, one rewritten with it is scored by its new text', async () => {
    await app.api().patch('/api/artikel/kata-sekali').set(app.auth()).send({ content: 'Tanpa kata itu lagi.' }).expect(200);
    await app.api().patch('/api/artikel/dalam-lama').set(app.auth()).send({ content: 'Fokus, fokus, fokus, fokus, fokus.' }).expect(200);
    const relevant = await list('q=fokus&sort=relevance&limit=50');
    expect(slugsOf(relevant)).toEqual(['judul', 'dalam-lama', 'kata-sering', 'dalam-baru', 'dalam-sering']);
    if (app.store !== 'sqlite') return;
    // The word index holds one entry per published article, as the trigram index does.
    withSqliteFile(app.databaseFile, (database) => {
      const count = (table: string) =>
        (database.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${table} MATCH 'tanpa'`).get() as { n: number }).n;
      expect(count('artikel_search_words')).toBe(count('artikel_search'));
      expect(count('artikel_search_words')).toBe(1);
    });
  });
});
