import { createArticle } from '../helpers/fixtures';
import { startStrapi, type TestApp } from '../helpers/strapi';

// Issue 33: sort=relevance|views, the highlight of each search hit, and meta.suggestion ("did you
// mean"), through HTTP with supertest and with Node's own fetch(), on whichever store the suite runs.

let app: TestApp;
let base: string;

interface Summary {
  slug: string;
  title: string;
  summary: string;
  views: number;
  highlight?: { title: string; excerpt: string };
}
interface ListBody {
  data: Summary[];
  meta: { pagination: { page: number; limit: number; total: number; page_count: number }; sort?: string; suggestion?: string | null };
  links: { next: string | null; prev: string | null };
}

const FILLER = 'Cahaya pagi masuk dari jendela studio dan semua orang bersiap dengan tenang sebelum sesi dimulai. ';
const LONG_BEFORE = FILLER.repeat(20);
const LONG_AFTER = FILLER.repeat(20);

beforeAll(async () => {
  app = await startStrapi();
  base = await app.baseUrl();
  // Created oldest first: each is published after the one before it.
  await createArticle(app.strapi, {
    title: 'Lensa Makro untuk Pemula',
    slug: 'lensa-makro-pemula',
    content: 'Panduan memilih peralatan pertama anda.',
    tags: 'Panduan, Lensa',
  });
  await createArticle(app.strapi, {
    title: 'Serangga di taman',
    slug: 'serangga-taman',
    content: 'Lensa makro untuk serangga. Makro berarti dekat. Foto makro perlu cahaya.',
    tags: 'Lensa',
  });
  await createArticle(app.strapi, {
    title: 'Cerita pagi',
    slug: 'cerita-pagi-a',
    content: 'Lensa makro untuk bunga. Dekat berarti detail. Foto perlu banyak cahaya.',
  });
  await createArticle(app.strapi, {
    title: 'Cerita pagi',
    slug: 'cerita-pagi-b',
    content: 'Lensa makro untuk bunga. Dekat berarti detail. Foto perlu banyak cahaya.',
  });
  await createArticle(app.strapi, {
    title: '<script>alert("x")</script> & \'Über\' Fotografi',
    slug: 'escaping',
    content: `${LONG_BEFORE}Di sini <strong>über</strong> &amp; ÜBER bertemu fotografer. ${LONG_AFTER}`,
    summary: 'Ringkasan tanpa kata itu.',
  });
  await createArticle(app.strapi, {
    title: 'Sesi prewedding di pantai',
    slug: 'prewedding-pantai',
    content: 'Pasangan datang saat matahari terbenam.',
    tags: 'Prewedding, Pantai',
  });
  await createArticle(app.strapi, {
    title: 'Kopi dan kamera',
    slug: 'kopi-kamera',
    content: 'Tidak ada hubungannya dengan yang lain.',
  });
}, 180_000);

afterAll(async () => {
  await app.stop();
});

const slugsOf = (body: ListBody): string[] => body.data.map((article) => article.slug);

async function list(query: string): Promise<ListBody> {
  const response = await app.api().get(`/api/artikel?${query}`).expect(200);
  return response.body as ListBody;
}

async function listWithFetch(query: string): Promise<ListBody> {
  const response = await fetch(`${base}/api/artikel?${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as ListBody;
}

describe('sort=relevance', () => {
  it('ranks an article with every word in its title first, then more occurrences, then the newest of equal ones', async () => {
    const body = await list('q=lensa%20makro&sort=relevance');
    expect(slugsOf(body)).toEqual(['lensa-makro-pemula', 'serangga-taman', 'cerita-pagi-b', 'cerita-pagi-a']);
    expect(body.meta.pagination).toEqual({ page: 1, limit: 10, total: 4, total_exact: true, page_count: 1 });
    expect(body.meta.sort).toBe('relevance');
  });

  it('finds exactly the articles the newest-first search finds, only in another order', async () => {
    for (const q of ['makro', 'lensa%20makro', 'foto', 'ü', 'an', '%C3%BCber', 'fotograf', 'lensa%20cahaya']) {
      const newest = await list(`q=${q}&limit=50`);
      const relevant = await listWithFetch(`q=${q}&sort=relevance&limit=50`);
      expect(relevant.meta.pagination).toEqual(newest.meta.pagination);
      expect([...slugsOf(relevant)].sort()).toEqual([...slugsOf(newest)].sort());
    }
  });

  it('ranks within a tag filter the same way', async () => {
    const body = await listWithFetch('q=makro&sort=relevance&tag=lensa');
    expect(slugsOf(body)).toEqual(['lensa-makro-pemula', 'serangga-taman']);
    expect(body.meta.pagination.total).toBe(2);
  });

  it('ranks one- and two-letter words too (title first)', async () => {
    const body = await list('q=%C3%BC&sort=relevance');
    expect(slugsOf(body)).toEqual(['escaping']);
    const two = await list('q=pa&sort=relevance&limit=50');
    // "pa" is in the title of only the prewedding article ("pantai"): it comes first.
    expect(slugsOf(two)[0]).toBe('prewedding-pantai');
  });

  it('walks every match exactly once along links.next, by page number', async () => {
    const seen: string[] = [];
    let next: string | null = `${base}/api/artikel?q=makro&sort=relevance&limit=1`;
    while (next !== null) {
      const response: Response = await fetch(next);
      expect(response.status).toBe(200);
      const body = (await response.json()) as ListBody;
      seen.push(...slugsOf(body));
      expect(body.meta.pagination.total).toBe(4);
      next = body.links.next;
      if (next !== null) expect(new URL(next).searchParams.get('page')).not.toBeNull();
    }
    expect(seen).toEqual(['lensa-makro-pemula', 'serangga-taman', 'cerita-pagi-b', 'cerita-pagi-a']);
  });

  it('counts every match on a page past the last one, which lists none', async () => {
    const body = await listWithFetch('q=makro&sort=relevance&limit=2&page=7');
    expect(body.data).toEqual([]);
    expect(body.meta.pagination).toEqual({ page: 7, limit: 2, total: 4, total_exact: true, page_count: 2 });
    const none = await list('q=zzzqqq&sort=relevance');
    expect(none.meta.pagination.total).toBe(0);
  });

  it('is a 400 naming sort without q, and an unknown sort is a 400 too', async () => {
    const without = await app.api().get('/api/artikel?sort=relevance').expect(400);
    expect(without.body.error.message).toMatch(/sort/);
    expect(without.body.error.details.errors[0].path).toEqual(['sort']);
    const unknown = await fetch(`${base}/api/artikel?sort=oldest`);
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(/sort must be/);
  });

  it('refuses a cursor with a sort other than newest, saying to follow links.next', async () => {
    const first = await list('q=makro&limit=1');
    const cursor = new URL(first.links.next ?? '').searchParams.get('cursor');
    expect(cursor).not.toBeNull();
    const refused = await app.api().get(`/api/artikel?q=makro&limit=1&sort=relevance&cursor=${cursor}`).expect(400);
    expect(refused.body.error.message).toMatch(/cursor/);
  });
});

describe('highlight', () => {
  it('marks each occurrence of a query word and escapes everything else', async () => {
    const body = await list('q=%C3%BCber');
    expect(slugsOf(body)).toEqual(['escaping']);
    const { highlight } = body.data[0];
    expect(highlight?.title).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;<mark>Über</mark>&#39; Fotografi');
    expect(highlight?.excerpt).toContain('<mark>über</mark> &amp; <mark>ÜBER</mark> bertemu');
    expect(highlight?.excerpt).not.toMatch(/<(?!\/?mark>)/);
    // About 200 characters of the text around the match, whatever the content's length.
    const shown = (highlight?.excerpt ?? '').replace(/<\/?mark>/g, '').replace(/&[a-z#0-9]+;/g, '&');
    expect(shown.length).toBeLessThanOrEqual(220);
    expect(shown.length).toBeGreaterThan(100);
  });

  it('marks a word inside a longer word', async () => {
    const body = await listWithFetch('q=foto');
    const escaping = body.data.find((article) => article.slug === 'escaping');
    expect(escaping?.highlight?.title).toContain('<mark>Foto</mark>grafi');
    expect(escaping?.highlight?.excerpt).toContain('<mark>foto</mark>grafer');
  });

  it('shows the summary as the excerpt when only the title or tags match', async () => {
    const body = await list('q=pemula');
    expect(body.data[0].highlight).toEqual({
      title: 'Lensa Makro untuk <mark>Pemula</mark>',
      excerpt: body.data[0].summary,
    });
    const tagged = await list('q=panduan&sort=relevance');
    expect(tagged.data[0].slug).toBe('lensa-makro-pemula');
    expect(tagged.data[0].highlight?.excerpt).toBe('<mark>Panduan</mark> memilih peralatan pertama anda.');
  });

  it('is absent without q', async () => {
    const body = await list('limit=50');
    expect(body.data.every((article) => article.highlight === undefined)).toBe(true);
    expect(body.meta.suggestion).toBeUndefined();
  });
});

describe('sort=views', () => {
  it('lists the most read first, ties newest first, from the exact counts', async () => {
    for (let read = 0; read < 3; read += 1) await app.api().get('/api/artikel/serangga-taman').expect(200);
    for (let read = 0; read < 2; read += 1) await fetch(`${base}/api/artikel/kopi-kamera`);
    await app.api().get('/api/artikel/cerita-pagi-a').expect(200);
    const body = await list('sort=views&limit=4');
    expect(slugsOf(body)).toEqual(['serangga-taman', 'kopi-kamera', 'cerita-pagi-a', 'prewedding-pantai']);
    expect(body.data.map((article) => article.views)).toEqual([3, 2, 1, 0]);
    expect(body.meta.sort).toBe('views');
    const searched = await listWithFetch('q=makro&sort=views');
    expect(slugsOf(searched)).toEqual(['serangga-taman', 'cerita-pagi-a', 'cerita-pagi-b', 'lensa-makro-pemula']);
  });

  it('walks every article exactly once along links.next', async () => {
    const seen: string[] = [];
    let next: string | null = `${base}/api/artikel?sort=views&limit=3`;
    while (next !== null) {
      const body = (await (await fetch(next)).json()) as ListBody;
      seen.push(...slugsOf(body));
      expect(body.meta.pagination.total).toBe(7);
      next = body.links.next;
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
  });
});

describe('meta.suggestion', () => {
  it('proposes the closest spelling for a two-letter typo that finds nothing', async () => {
    const body = await list('q=prewedng');
    expect(body.data).toEqual([]);
    expect(body.meta.pagination.total).toBe(0);
    expect(body.meta.suggestion).toBe('prewedding');
    const following = await listWithFetch(`q=${encodeURIComponent(body.meta.suggestion ?? '')}`);
    expect(slugsOf(following)).toEqual(['prewedding-pantai']);
  });

  it('proposes a correction for a one-letter typo, keeping the words that found something', async () => {
    const body = await listWithFetch('q=lensa%20makri');
    expect(body.meta.pagination.total).toBe(0);
    expect(body.meta.suggestion).toBe('lensa makro');
  });

  it('is null for a query with no close word, and never set on a query that found results', async () => {
    expect((await list('q=zzzzqqqq')).meta.suggestion).toBeNull();
    expect((await list('q=makro')).meta.suggestion).toBeNull();
    expect((await list('q=makro&sort=relevance')).meta.suggestion).toBeNull();
  });
});
