import { createArticle } from '../helpers/fixtures';
import { listPage, slugsOf, type ListBody } from '../helpers/list-pages';
import { startStrapi, type TestApp } from '../helpers/strapi';

// Contract, fourth round, "Search": each word of q matches a word of the title, the content or the
// tags that begins with it or shares its stem (Indonesian and English). The pairs below are a
// query word and a form of it an article holds, across the affix classes of Indonesian
// (Adriani et al., "Stemming Indonesian: A confix-stripping approach", ACM TALIP 6(4), 2007, the
// algorithm Sastrawi implements): meN-/peN- with the first letter they replace (p, t, k, s), ber-,
// ke-…-an, per-…-an, di-…-kan, -nya, -an, -kan. Each article holds only the form, never the query
// word inside one of its words, so a substring search would miss every one of them.
const FORMS: Array<[query: string, form: string]> = [
  ['potret', 'memotret'],
  ['potret', 'pemotretan'],
  ['foto', 'memfoto'],
  ['tahan', 'bertahan'],
  ['bijak', 'kebijakan'],
  ['indah', 'keindahan'],
  ['jalan', 'perjalanan'],
  ['cahaya', 'pencahayaan'],
  ['cetak', 'mencetak'],
  ['pamer', 'memamerkan'],
  ['bingkai', 'membingkai'],
  ['ajar', 'pelajaran'],
  ['baca', 'membaca'],
  ['tulis', 'menulis'],
  ['gambar', 'menggambar'],
  ['lihat', 'penglihatan'],
  ['buat', 'pembuatan'],
  ['kirim', 'pengiriman'],
  ['pilih', 'memilih'],
  ['rekam', 'merekam'],
  ['sunting', 'menyunting'],
  ['sewa', 'menyewa'],
  ['siap', 'persiapan'],
  ['atur', 'pengaturan'],
  ['ubah', 'perubahan'],
  ['abadi', 'mengabadikan'],
  ['gelap', 'kegelapan'],
  ['rencana', 'perencanaan'],
  ['tampil', 'penampilan'],
  ['kumpul', 'berkumpul'],
  ['tunggu', 'menunggu'],
  ['tanam', 'menanam'],
  // The other way round: a form finds the root and the root's other forms.
  ['memotret', 'potretnya'],
  ['menulis', 'tulisan'],
  // English: Snowball's stemmer.
  ['weddings', 'wedding'],
  ['studios', 'studio'],
];

let app: TestApp;

const slugOf = (query: string, form: string): string => `bentuk-${query}-${form}`;

beforeAll(async () => {
  app = await startStrapi({ token: true, category: true });
  for (const [query, form] of FORMS) {
    await createArticle(app.strapi, {
      title: `Catatan ${form.toUpperCase()}`,
      slug: slugOf(query, form),
      content: `Hari ini kami ${form}, lalu pulang.`,
    });
  }
  await createArticle(app.strapi, {
    title: 'Sesi memotret keluarga',
    slug: 'judul-memotret',
    content: 'Keluarga besar di taman.',
    tags: 'Keluarga',
  });
  await createArticle(app.strapi, { title: 'Keluarga di taman', slug: 'isi-pemotretan', content: 'Pemotretan keluarga besar.' });
}, 300_000);

afterAll(async () => {
  await app.stop();
});

const list = (query: string): Promise<ListBody> => listPage(app, query);

describe('a search word finds the words that share its stem', () => {
  it.each(FORMS)('q=%s finds the article holding only “%s”', async (query, form) => {
    const body = await list(`q=${encodeURIComponent(query)}&limit=100`);
    expect(slugsOf(body)).toContain(slugOf(query, form));
    expect(body.meta.pagination.total).toBe(body.data.length);
  });

  it('requires every word: a form of each, or a word it begins', async () => {
    expect(slugsOf(await list('q=potret%20keluarga'))).toEqual(['isi-pemotretan', 'judul-memotret']);
    expect(slugsOf(await list('q=potret%20kelu'))).toEqual(['isi-pemotretan', 'judul-memotret']);
    const none = await list('q=potret%20pulangnya%20sawah');
    expect(none.data).toEqual([]);
    expect(none.meta.pagination.total).toBe(0);
  });

  it('does not match words that only look alike: a word is not a form of a longer, unrelated one', async () => {
    // "tanam" (plant) shares no stem with "tahan" (hold), nor "baca" with "bicara".
    expect(slugsOf(await list('q=tanam&limit=100'))).not.toContain(slugOf('tahan', 'bertahan'));
    expect(slugsOf(await list('q=bicara&limit=100'))).toEqual([]);
  });

  it('marks the forms it found in the highlight, as it marks the word itself', async () => {
    const hits = (await list('q=potret&limit=100')).data as Array<{ slug: string; highlight: { title: string; excerpt: string } }>;
    const found = hits.find((article) => article.slug === slugOf('potret', 'pemotretan'));
    expect(found?.highlight.title).toBe('Catatan <mark>PEMOTRETAN</mark>');
    expect(found?.highlight.excerpt).toContain('kami <mark>pemotretan</mark>, lalu');
  });

  it('ranks a form in the title above a form only in the content, whichever is newer', async () => {
    expect(slugsOf(await list('q=potret%20keluarga&sort=relevance'))).toEqual(['judul-memotret', 'isi-pemotretan']);
    const ranked = await list('q=memotret&sort=relevance&limit=100');
    expect(slugsOf(ranked)[slugsOf(ranked).length - 1]).toBe('isi-pemotretan');
    expect(ranked.meta.pagination.total).toBe(5);
  });

  it('finds a form a new article brings at once, also where the same search was answered just before', async () => {
    const before = await list('q=cetak&limit=100');
    expect(slugsOf(before)).toEqual([slugOf('cetak', 'mencetak')]);
    const response = await fetch(`${await app.baseUrl()}/api/artikel`, {
      method: 'POST',
      headers: { ...app.auth(), 'Content-Type': 'application/json' },
      body: JSON.stringify({
        title: 'Cetakan album',
        category: 'Studio',
        content: 'Album dicetak ulang di studio.',
        slug: 'album-dicetak',
      }),
    });
    expect(response.status).toBe(201);
    const after = await list('q=cetak&limit=100');
    expect(slugsOf(after)).toEqual(['album-dicetak', slugOf('cetak', 'mencetak')]);
    expect(after.meta.pagination.total).toBe(2);
  });

  it('gives an index from before the stems its words’ stems at start, and finds the forms after it as before', async () => {
    const before = await list('q=potret&limit=100');
    expect(before.meta.pagination.total).toBe(5);
    // The table of stems is what the earlier version lacked; its vocabulary or dictionary stays.
    await app.strapi.db.connection.schema.dropTable('artikel_search_stems');
    await app.stop({ keepDatabase: true });
    app = await startStrapi({ databaseFile: app.databaseFile, token: true });
    expect(await list('q=potret&limit=100')).toEqual(before);
    expect(slugsOf(await list('q=tulis'))).toEqual([slugOf('menulis', 'tulisan'), slugOf('tulis', 'menulis')]);
  });
});
