import { registerEditor } from '../helpers/admin';
import { adminTokenOf, mcpClient, textOf } from '../helpers/factories';
import { createArticle, createCategory } from '../helpers/fixtures';
import { startStrapi, type TestApp } from '../helpers/strapi';

/**
 * A search counts its matches up to a bound (10,000 by default, the contract's promise) and says
 * "at least" past it, as Elasticsearch's track_total_hits does: counting every match was most of a
 * search's cost at a million articles. The bound is lowered to 3 here so a handful of articles
 * crosses it; every page past the bound is still served, and the walk along links.next still
 * returns every match once.
 */
const BOUND = 3;
// Seven articles hold "kabut" (past the bound), two "senja" (within it).
const FOG = 7;
const DUSK = 2;

let app: TestApp;
let base: string;
// The slugs of the "kabut" articles, newest first.
let fogNewestFirst: string[];

interface ListBody {
  data: Array<{ slug: string }>;
  meta: { pagination: { page: number; limit: number; total: number; total_exact: boolean; page_count: number } };
  links: { next: string | null; prev: string | null };
}

beforeAll(async () => {
  app = await startStrapi({ env: { ARTIKEL_EXACT_TOTAL: String(BOUND) } });
  base = await app.baseUrl();
  const hills = await createCategory(app.strapi, 'Bukit', 'bukit');
  const created: string[] = [];
  for (let index = 0; index < FOG; index += 1) {
    const slug = `kabut-pagi-${index}`;
    await createArticle(app.strapi, { title: `Kabut pagi ${index}`, slug, category: hills, tags: 'Lanskap' });
    created.push(slug);
  }
  for (let index = 0; index < DUSK; index += 1) {
    await createArticle(app.strapi, { title: `Senja di pantai ${index}`, slug: `senja-${index}`, category: hills });
  }
  fogNewestFirst = created.reverse();
}, 120_000);

afterAll(async () => {
  await app.stop();
});

const listed = async (query: Record<string, string>): Promise<ListBody> =>
  (await app.api().get('/api/artikel').query(query).expect(200)).body as ListBody;

describe('a search counts its matches up to the bound', () => {
  it('gives the bound as a lower bound past it, with total_exact false and page_count following it', async () => {
    const first = await listed({ q: 'kabut', limit: '2' });
    expect(first.meta.pagination).toEqual({ page: 1, limit: 2, total: BOUND, total_exact: false, page_count: 2 });
    expect(first.data.map((article) => article.slug)).toEqual(fogNewestFirst.slice(0, 2));
    expect(first.links.next).not.toBeNull();
  });

  it('counts exactly within the bound, and without a search whatever the number', async () => {
    expect((await listed({ q: 'senja' })).meta.pagination).toMatchObject({ total: DUSK, total_exact: true, page_count: 1 });
    expect((await listed({})).meta.pagination).toMatchObject({ total: FOG + DUSK, total_exact: true });
    expect((await listed({ kategori: 'bukit' })).meta.pagination).toMatchObject({ total: FOG + DUSK, total_exact: true });
    expect((await listed({ q: 'senja', sort: 'relevance' })).meta.pagination).toMatchObject({ total: DUSK, total_exact: true });
  });

  it.each(['relevance', 'views'])(
    'bounds a search sorted by %s the same way, and walks every match once along its numbered pages',
    async (sort) => {
      const first = await listed({ q: 'kabut', sort, limit: '2' });
      expect(first.meta.pagination).toEqual({ page: 1, limit: 2, total: BOUND, total_exact: false, page_count: 2 });
      const seen: string[] = [];
      let next: string | null = `${base}/api/artikel?q=kabut&sort=${sort}&limit=2`;
      let last: ListBody | null = null;
      for (let pages = 0; next !== null && pages < 10; pages += 1) {
        const answer: Response = await fetch(next);
        expect(answer.status).toBe(200);
        last = (await answer.json()) as ListBody;
        seen.push(...last.data.map((article) => article.slug));
        ({ next } = last.links);
      }
      // Equal titles and no views: equal ones newest first.
      expect(seen).toEqual(fogNewestFirst);
      expect(next).toBeNull();
      expect(last?.meta.pagination).toMatchObject({ page: 4, total_exact: false });
      expect(new URL(String(last?.links.prev)).searchParams.get('page')).toBe('3');
    },
  );

  it('bounds a category and a tag together the same way', async () => {
    const both = await listed({ kategori: 'bukit', tag: 'lanskap', limit: '5' });
    expect(both.meta.pagination).toMatchObject({ total: BOUND, total_exact: false });
    expect(both.data.map((article) => article.slug)).toEqual(fogNewestFirst.slice(0, 5));
  });

  it('returns every match once along links.next, read with fetch() as a client would, and ends with no next link', async () => {
    const seen: string[] = [];
    let next: string | null = `${base}/api/artikel?q=kabut&limit=2`;
    for (let pages = 0; next !== null && pages < 10; pages += 1) {
      const answer: Response = await fetch(next);
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as ListBody;
      seen.push(...body.data.map((article) => article.slug));
      ({ next } = body.links);
    }
    expect(seen).toEqual(fogNewestFirst);
    expect(next).toBeNull();
  });

  it('serves a page by number past the bound, linking back to the page before it', async () => {
    const last = await listed({ q: 'kabut', limit: '2', page: '4' });
    expect(last.data.map((article) => article.slug)).toEqual(fogNewestFirst.slice(6));
    expect(last.meta.pagination).toMatchObject({ page: 4, total_exact: false });
    expect(last.links.next).toBeNull();
    expect(new URL(String(last.links.prev)).searchParams.get('page')).toBe('3');
    const past = await listed({ q: 'kabut', limit: '2', page: '5' });
    expect(past.data).toEqual([]);
  });

  it('exports every match of a search past the bound, counted against the export cap instead', async () => {
    const answer = await app.api().get('/api/artikel/export.csv').query({ q: 'kabut', bom: 'false' }).expect(200);
    const rows = answer.text.trim().split('\n').slice(1);
    expect(rows).toHaveLength(FOG);
  });

  it("tells an agent's artikel_search the lower bound as such, in its text and its structured answer", async () => {
    await registerEditor(app);
    const owner = (await app.strapi.db.query('admin::user').findOne({ where: {} })) as { id: number };
    const agent = await mcpClient(app, await adminTokenOf(app, owner.id, ['read']));
    try {
      const answer = await agent.call('artikel_search', { q: 'kabut', limit: 2 });
      expect(answer.isError).toBeFalsy();
      expect(textOf(answer)).toMatch(new RegExp(`^More than ${BOUND} articles in all`));
      expect(answer.structuredContent?.meta).toMatchObject({ pagination: { total: BOUND, total_exact: false } });
      const exact = await agent.call('artikel_search', { q: 'senja' });
      expect(textOf(exact)).toMatch(new RegExp(`^${DUSK} articles in all`));
    } finally {
      await agent.close();
    }
  });

  it('still suggests a spelling for a search that finds nothing', async () => {
    const body = (await app.api().get('/api/artikel').query({ q: 'kabutt' }).expect(200)).body as ListBody & {
      meta: { suggestion: string | null };
    };
    expect(body.meta.pagination).toMatchObject({ total: 0, total_exact: true });
    expect(body.meta.suggestion).toBe('kabut');
  });
});
