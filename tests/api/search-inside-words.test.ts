import Database from 'better-sqlite3';
import { createArticle } from '../helpers/fixtures';
import { currentStore, withSqliteFile } from '../helpers/store';
import { listPage, slugsOf, type ListBody } from '../helpers/list-pages';
import { startStrapi, type TestApp } from '../helpers/strapi';
import { eventually } from '../helpers/eventually';

// Issue 34: a search word of ASCII letters and digits is looked up through the vocabulary of every
// word the articles hold (each word that contains it), so its matches and their count come from the
// word index's lists instead of the trigram index's. The contract's meaning stays: every word a
// substring of the title, the content or the tags, in any case. These cases are where the two ways
// could differ: a word only inside longer words, words a write brings or takes away after the index
// was built, a word inside more vocabulary words than one lookup takes, an index from before the
// vocabulary.

// Above the number of vocabulary words one query word is looked up by (64), so that lookup gives up.
const MANY_WORDS = 80;
// Far above the fraction of a second a build of these few articles takes, for a loaded 2-core machine.
const BUILD_MS = 30_000;

let app: TestApp;

beforeAll(async () => {
  app = await startStrapi({ token: true, category: true });
  // Created oldest first.
  await createArticle(app.strapi, { title: 'Jam emas', slug: 'kata-sendiri', content: 'Cahaya GOLDEN di sore hari.' });
  await createArticle(app.strapi, { title: 'Bunga', slug: 'di-awal', content: 'Goldenrod di tepi sawah.' });
  await createArticle(app.strapi, { title: 'Cincin', slug: 'di-tengah', content: 'Warna rosegoldens yang lembut.' });
  await createArticle(app.strapi, { title: 'Label', slug: 'di-tag', content: 'Tanpa kata itu.', tags: 'Studio, XGolden2' });
  await createArticle(app.strapi, { title: 'Lain', slug: 'tanpa-kata', content: 'Gold, den, dan gol-den terpisah.' });
  // One article holding more distinct words around "qwz" than one lookup takes, and one holding it once.
  const many = Array.from({ length: MANY_WORDS }, (_, index) => `a${index}qwz`).join(' ');
  await createArticle(app.strapi, { title: 'Banyak', slug: 'banyak-kata', content: `Daftar: ${many}.` });
  await createArticle(app.strapi, { title: 'Sekali', slug: 'sekali', content: 'Satu QWZb saja.' });
}, 180_000);

afterAll(async () => {
  await app.stop();
});

const list = (query: string): Promise<ListBody> => listPage(app, query);

describe('search words found inside the articles’ words', () => {
  it('finds a word alone, at the start, inside and at the end of longer words and tags, in any case, newest first, with its total', async () => {
    const body = await list('q=GoLdEn');
    expect(slugsOf(body)).toEqual(['di-tag', 'di-tengah', 'di-awal', 'kata-sendiri']);
    expect(body.meta.pagination.total).toBe(4);
    // Split by punctuation or spaces ("Gold, den", "gol-den") the word is not there: four, not five.
    expect(slugsOf(await list('q=golden&limit=1&page=4'))).toEqual(['kata-sendiri']);
  });

  it('requires every word, each found inside its own words', async () => {
    expect(slugsOf(await list('q=golden%20sawah'))).toEqual(['di-awal']);
    expect(slugsOf(await list('q=lembut%20rosegold'))).toEqual(['di-tengah']);
    const none = await list('q=golden%20qqqzzz');
    expect(none.data).toEqual([]);
    expect(none.meta.pagination.total).toBe(0);
  });

  it('counts a word inside more of the articles’ words than one lookup takes, exactly', async () => {
    const body = await list('q=qwz');
    expect(slugsOf(body)).toEqual(['sekali', 'banyak-kata']);
    expect(body.meta.pagination.total).toBe(2);
    expect(slugsOf(await list('q=qwz%20daftar'))).toEqual(['banyak-kata']);
  });

  it('follows writes: a word a new article, an edit or an unpublish brings or takes away is found or not at once', async () => {
    const auth = app.auth();
    expect((await list('q=zebrafinch')).meta.pagination.total).toBe(0);
    await app
      .api()
      .post('/api/artikel')
      .set(auth)
      .send({ title: 'Burung', slug: 'burung', content: 'Seekor Zebrafinches di dahan.', category: 'Studio' })
      .expect(201);
    expect(slugsOf(await list('q=finch'))).toEqual(['burung']);
    expect(slugsOf(await list('q=zebrafinch'))).toEqual(['burung']);

    await app.api().patch('/api/artikel/burung').set(auth).send({ content: 'Seekor pipit di dahan.' }).expect(200);
    expect((await list('q=finch')).meta.pagination.total).toBe(0);
    expect(slugsOf(await list('q=pipit'))).toEqual(['burung']);

    await app.api().patch('/api/artikel/burung').set(auth).send({ status: 'draft' }).expect(200);
    expect((await list('q=pipit')).meta.pagination.total).toBe(0);
  });

  (currentStore() === 'sqlite' ? it : it.skip)(
    'adds the words of an index from before the vocabulary at start, keeping its entries, and answers the same meanwhile and after',
    async () => {
      const before = { alone: await list('q=golden'), many: await list('q=qwz') };
      await app.stop({ keepDatabase: true });
      const entryIds = "SELECT group_concat(id || ':' || document_id) AS ids FROM artikel_search_docs";
      let idsBefore: string;
      const file = new Database(app.databaseFile);
      try {
        file.exec('DROP TABLE artikel_search_vocabulary; DROP TABLE artikel_search_vocabulary_trigrams;');
        idsBefore = (file.prepare(entryIds).get() as { ids: string }).ids;
      } finally {
        file.close();
      }
      app = await startStrapi({ databaseFile: app.databaseFile, token: true });
      expect(await list('q=golden')).toEqual(before.alone);
      const read = <Row>(sql: string): Row | undefined =>
        withSqliteFile(app.databaseFile, (database) => database.prepare(sql).get() as Row | undefined);
      const pending = await eventually(
        () => read<{ pending: number }>('SELECT count(*) AS pending FROM artikel_search_vocabulary_backfill')?.pending,
        (count) => count === 0,
        { withinMs: BUILD_MS, everyMs: 100 },
      );
      expect(pending).toBe(0);
      expect(read<{ n: number }>("SELECT count(*) AS n FROM artikel_search_vocabulary WHERE word = 'rosegoldens'")?.n).toBe(1);
      // The entries were kept, not built again.
      expect(read<{ ids: string }>(entryIds)?.ids).toBe(idsBefore);
      expect(await list('q=golden')).toEqual(before.alone);
      expect(await list('q=qwz')).toEqual(before.many);
    },
  );

  (currentStore() === 'sqlite' ? it : it.skip)(
    'merges the word index, which every write adds a part to, into one part after a start, answering the same',
    async () => {
      for (let index = 0; index < 12; index += 1)
        await createArticle(app.strapi, { title: `Awan ${index}`, slug: `awan-${index}`, content: 'Awan kelabu di atas laut.' });
      const before = { alone: await list('q=golden'), many: await list('q=qwz'), clouds: await list('q=awan&limit=20') };
      expect(before.clouds.meta.pagination.total).toBe(12);
      const parts = (): number =>
        withSqliteFile(
          app.databaseFile,
          (database) =>
            (database.prepare('SELECT count(DISTINCT segid) AS parts FROM artikel_search_words_idx').get() as { parts: number }).parts,
        );
      expect(parts()).toBeGreaterThan(1);
      await app.stop({ keepDatabase: true });
      app = await startStrapi({ databaseFile: app.databaseFile, token: true });
      expect(await eventually(parts, (count) => count === 1, { withinMs: BUILD_MS, everyMs: 100 })).toBe(1);
      expect({ alone: await list('q=golden'), many: await list('q=qwz'), clouds: await list('q=awan&limit=20') }).toEqual(before);
    },
  );
});
