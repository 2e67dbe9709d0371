import { createArticle } from '../helpers/fixtures';
import { eventually } from '../helpers/eventually';
import { listPage, slugsOf } from '../helpers/list-pages';
import { currentStore } from '../helpers/store';
import { startStrapi, type TestApp } from '../helpers/strapi';

/**
 * The word index keeps each article's words as they are written, punctuation included, and a
 * query word finds the words it begins or is inside of, whatever characters they hold. On
 * PostgreSQL a page's walk tests an article's words as a tsvector, whose query syntax gives quotes,
 * backslashes, colons and & | ! ( ) a meaning: each is an ordinary character in q. A page is the same whether the
 * service walks the articles newest first testing each or reads the word's matches and sorts them
 * (it chooses by how many match: see walks in repositories/articles/lists.ts).
 */
const postgres = currentStore() === 'postgres';

// Words with the characters a tsquery would read as syntax, each in an article of its own.
const WRITTEN: Array<[slug: string, word: string]> = [
  ['kutipan', "it's"],
  ['garis-miring', 'a\\b'],
  ['titik-dua', 'f/2.8:iso'],
  ['operator', '&|!'],
  ['kurung', '(c)'],
  ['petik', "''"],
];
// "Kabut" is in all but a few of the articles, "embun" in one of them: a page of one article of
// the first is found by a walk, of the second through its matches. The fog articles hold every
// word of WRITTEN too, so that a walk tests them as well.
const FOGGY = 11;
// A word longer than a tsvector can hold with the rest (over 1 MB of words, counting the
// overlapping pieces a long word is kept as): that article's words are only in the array.
const LONG_WORD_CHARACTERS = 600_000;

let app: TestApp;
let longWord: string;

const list = (query: string) => listPage(app, query);

beforeAll(async () => {
  app = await startStrapi({ category: true });
  for (const [slug, word] of WRITTEN) await createArticle(app.strapi, { title: `Tanda ${slug}`, slug, content: `Lihat ${word} di sini.` });
  for (let index = 0; index < FOGGY; index += 1) {
    await createArticle(app.strapi, {
      title: `Kabut ${index}`,
      slug: `kabut-${index}`,
      content: `${index === 4 ? 'Kabut dan embun pagi.' : 'Kabut pagi.'} ${WRITTEN.map(([, word]) => word).join(' ')}`,
    });
  }
  // Every 40 characters of it are unlike any other 40 (a count in base 36 written out, 4 characters a number).
  longWord = `x${Array.from({ length: LONG_WORD_CHARACTERS / 4 }, (_, index) => index.toString(36).padStart(4, '0')).join('')}`;
  await createArticle(app.strapi, { title: 'Kata panjang sekali', slug: 'kata-panjang', content: `Awal ${longWord} akhir.` });
}, 180_000);

afterAll(async () => {
  await app.stop();
});

describe('words as written', () => {
  it('finds words holding quotes, backslashes, colons and & | ! ( ) as ordinary characters, and only those', async () => {
    const fog = Array.from({ length: FOGGY }, (_, index) => `kabut-${index}`);
    const holds = (slug: string, word: string): boolean =>
      fog.includes(slug) || WRITTEN.some(([other, held]) => other === slug && held.includes(word));
    for (const query of [...WRITTEN.map(([, word]) => word), 'f/2.8:', '&|', 'a\\']) {
      // Read through its matches (every one of them on the page)...
      const found = slugsOf(await list(`q=${encodeURIComponent(query)}&limit=50`));
      expect(found).toEqual(
        expect.arrayContaining([...fog, ...WRITTEN.filter(([, word]) => word.startsWith(query)).map(([slug]) => slug)]),
      );
      // ...and any other article found holds the word inside one of its own.
      expect(found.filter((slug) => !holds(slug, query))).toEqual([]);
      // A page of one, found by a walk newest first: the newest fog article.
      expect(slugsOf(await list(`q=${encodeURIComponent(query)}&limit=1`))).toEqual([`kabut-${FOGGY - 1}`]);
    }
    expect((await list(`q=${encodeURIComponent("it's x")}`)).meta.pagination.total).toBe(0);
  });

  it('gives the same pages of a word in nearly every article and of a word in one, by number and by cursor', async () => {
    const newestFirst = Array.from({ length: FOGGY }, (_, index) => `kabut-${FOGGY - 1 - index}`);
    const pages: string[] = [];
    let page = await list('q=kabut&limit=1');
    expect(page.meta.pagination).toMatchObject({ total: FOGGY, total_exact: true });
    for (;;) {
      pages.push(...slugsOf(page));
      if (page.links.next === null) break;
      page = await list(page.links.next.slice(page.links.next.indexOf('?') + 1));
    }
    expect(pages).toEqual(newestFirst);
    expect(slugsOf(await list('q=kabut&limit=3&page=2'))).toEqual(newestFirst.slice(3, 6));
    expect(slugsOf(await list('q=embun&limit=1'))).toEqual(['kabut-4']);
    expect(slugsOf(await list('q=kabut%20embun&limit=1'))).toEqual(['kabut-4']);
    expect(slugsOf(await list('q=kabut%20pagi&limit=20'))).toEqual(newestFirst);
  });

  it('finds an article whose words are more than a megabyte by its words, long and short, and with a word of another article finds nothing', async () => {
    // Its first 40 characters, a word it begins with.
    const beginning = longWord.slice(0, 40);
    expect(slugsOf(await list(`q=${beginning}`))).toEqual(['kata-panjang']);
    expect(slugsOf(await list(`q=akhir%20${beginning}`))).toEqual(['kata-panjang']);
    expect(slugsOf(await list('q=sekali'))).toEqual(['kata-panjang']);
    expect((await list(`q=kabut%20${beginning}`)).meta.pagination.total).toBe(0);
    if (postgres) {
      // Its entry has its words in the array alone, where every other entry has them as a tsvector too.
      const entries = (await app.strapi.db
        .connection('artikel_search_docs')
        .select(app.strapi.db.connection.raw('words IS NULL AS in_array'))
        .count({ entries: '*' })
        .groupByRaw('words IS NULL')) as Array<{ in_array: boolean; entries: string }>;
      expect(entries.map((row) => [row.in_array, Number(row.entries)]).sort()).toEqual([
        [false, WRITTEN.length + FOGGY],
        [true, 1],
      ]);
    }
  });
});

(postgres ? describe : describe.skip)('an index of the earlier form on PostgreSQL', () => {
  it("is built again at start, each article's words in a tsvector, and answers as before", async () => {
    const queries = ['q=kabut&limit=3', "q=it's", 'q=embun', 'q=sekali', 'q=kabut%20pagi&limit=20'];
    // The pages as they read, links without the service's address (the next start has another port).
    const pages = async (): Promise<string[]> => {
      const base = await app.baseUrl();
      return (await Promise.all(queries.map(list))).map((page) => JSON.stringify(page).split(base).join(''));
    };
    const before = await pages();
    // The earlier form: every entry's words in a text array alone, no tsvector column.
    const knex = app.strapi.db.connection;
    await knex.raw(`CREATE TABLE earlier_docs AS SELECT document_id, article_id, terms, weighted FROM artikel_search_docs`);
    await knex.raw('DROP TABLE artikel_search_docs');
    await knex.raw('ALTER TABLE earlier_docs RENAME TO artikel_search_docs');
    await knex.raw('ALTER TABLE artikel_search_docs ADD PRIMARY KEY (document_id)');
    await app.stop({ keepDatabase: true });
    app = await startStrapi({ databaseFile: app.databaseFile });
    expect(await app.strapi.db.connection.schema.hasColumn('artikel_search_docs', 'words')).toBe(true);
    // While the index is built the articles are read; once it holds every article, from the index.
    expect(await pages()).toEqual(before);
    const entries = await eventually(
      async () => Number(((await app.strapi.db.connection('artikel_search_docs').count({ n: '*' })) as Array<{ n: string }>)[0].n),
      (count) => count === WRITTEN.length + FOGGY + 1,
      { withinMs: 60_000, everyMs: 100 },
    );
    expect(entries).toBe(WRITTEN.length + FOGGY + 1);
    expect(await pages()).toEqual(before);
  });
});
