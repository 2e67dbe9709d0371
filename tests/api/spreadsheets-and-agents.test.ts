import { parse } from 'csv-parse/sync';
import { createArticle } from '../helpers/fixtures';
import { CSV_HEADER } from '../helpers/public-reads';
import { startStrapi, type TestApp } from '../helpers/strapi';

/**
 * What a spreadsheet and an agent take in one request: every article as one CSV (Google Sheets'
 * IMPORTDATA, Excel "From Web"), a Markdown that keeps tables, and llms.txt at the site's root.
 * Asked with Node's own fetch(), as those tools do.
 */
// With the table article below: 600, exactly the export's cap in this app (ARTIKEL_EXPORT_ROWS),
// and more than the 500 articles the export reads at a time, so the file joins two reads.
const ARTICLES = 599;
let app: TestApp;
let base: string;

beforeAll(async () => {
  app = await startStrapi({ category: { name: 'Katalog', slug: 'katalog' }, token: 'full-access', env: { ARTIKEL_EXPORT_ROWS: '600' } });
  base = await app.baseUrl();
  for (let n = 1; n <= ARTICLES; n += 1) {
    const formula = n === 7 ? '=HYPERLINK("https://evil.example","klik")' : `Foto nomor ${n}`;
    await createArticle(app.strapi, {
      title: n === 1 ? 'Über — “Bokeh” Café' : formula,
      slug: `foto-${n}`,
      category: app.categoryId,
      tags: n % 2 === 0 ? 'Genap' : 'Ganjil',
    });
  }
  await createArticle(app.strapi, {
    title: 'Daftar harga lensa',
    slug: 'daftar-harga-lensa',
    category: app.categoryId,
    content:
      '<p>Harga sewa:</p><table><thead><tr><th>Lensa</th><th>Harga</th></tr></thead><tbody><tr><td>50mm</td><td>Rp 100.000</td></tr></tbody></table>',
  });
}, 600_000);

afterAll(() => app?.stop());

interface Row {
  id: string;
  title: string;
  slug: string;
}

const rowsOf = (text: string): Row[] => parse(text, { columns: true, bom: true }) as Row[];

describe('GET /api/artikel/export.csv', () => {
  it('serves every published article in one CSV, newest first, starting with a UTF-8 byte order mark', async () => {
    const response = await fetch(`${base}/api/artikel/export.csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = rowsOf(bytes.toString('utf8'));
    expect(rows).toHaveLength(ARTICLES + 1);
    expect(new Set(rows.map((row) => row.slug)).size).toBe(ARTICLES + 1);
    expect(rows[0].slug).toBe('daftar-harga-lensa');
    expect(rows.at(-1)?.title).toBe('Über — “Bokeh” Café');
    expect(rows.find((row) => row.slug === 'foto-7')?.title).toBe(`'=HYPERLINK("https://evil.example","klik")`);
    expect(Object.keys(rows[0])).toEqual(CSV_HEADER);
  });

  it('filters as the list does, leaves the byte order mark out with bom=false, and answers a revalidation with a 304', async () => {
    const response = await fetch(`${base}/api/artikel/export.csv?tag=genap&bom=false`);
    const text = await response.text();
    expect(text.startsWith('id,title')).toBe(true);
    expect(rowsOf(text)).toHaveLength(Math.floor(ARTICLES / 2));
    const etag = response.headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    const again = await fetch(`${base}/api/artikel/export.csv?tag=genap&bom=false`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
  });

  it('refuses an export over the cap with a 400 naming the cap and the paged form, and a bad parameter with a 400 naming it', async () => {
    const extra = await createArticle(app.strapi, { title: 'Satu lagi', slug: 'satu-lagi', category: app.categoryId });
    try {
      const over = await fetch(`${base}/api/artikel/export.csv`);
      expect(over.status).toBe(400);
      const message = ((await over.json()) as { error: { message: string } }).error.message;
      expect(message).toMatch(/at most 600 articles and this one would hold 601/);
      expect(message).toMatch(/\/api\/artikel\?format=csv&limit=50/);
    } finally {
      await app.strapi.documents('api::article.article').delete({ documentId: extra });
    }
    const refused = await fetch(`${base}/api/artikel/export.csv?bom=maybe&limit=5`);
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/bom must be "true" or "false"/);
    expect(body.error.message).toMatch(/limit is not an allowed field/);
  });
});

describe('Markdown and llms.txt for agents', () => {
  it('keeps an HTML table as a GitHub table in the Markdown of an article', async () => {
    const markdown = await (await fetch(`${base}/api/artikel/daftar-harga-lensa?format=md`)).text();
    expect(markdown).toMatch(/\| Lensa\s+\| Harga\s+\|\n\| -+ \| -+ \|\n\| 50mm\s+\| Rp 100\.000 \|/);
  });

  it('answers /llms.txt at the root as /api/artikel/llms.txt', async () => {
    const root = await fetch(`${base}/llms.txt`);
    const api = await fetch(`${base}/api/artikel/llms.txt`);
    expect(root.status).toBe(200);
    expect(root.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await root.text()).toBe(await api.text());
  });
});
