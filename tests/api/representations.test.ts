import { parse as parseCsv } from 'csv-parse/sync';
import MarkdownIt from 'markdown-it';
import { parse as parseYaml } from 'yaml';
import { createArticle } from '../helpers/fixtures';
import { CSV_HEADER } from '../helpers/public-reads';
import { startStrapi, type TestApp } from '../helpers/strapi';

let app: TestApp;

beforeAll(async () => {
  app = await startStrapi({ category: { name: 'Street', slug: 'street' }, env: { PUBLIC_URL: 'https://api.studio.example' } });
  await createArticle(app.strapi, {
    title: 'Night market, in Markdown',
    slug: 'night-market',
    category: app.categoryId,
    tags: 'Street, Night',
    content: 'Lanterns over the **stalls**.\n\n- satay\n- martabak',
  });
  await createArticle(app.strapi, {
    title: 'Rain on the tram, in HTML',
    slug: 'rain-tram',
    category: app.categoryId,
    content: '<h2>Window seat</h2><p>Drops on the <strong>glass</strong> and a <a href="https://studio.example">reflection</a>.</p>',
  });
  await createArticle(app.strapi, {
    title: '=HYPERLINK("https://evil.example","click")',
    slug: 'formula-title',
    category: app.categoryId,
    tags: '+cmd, @sum',
  });
});

afterAll(async () => {
  await app.stop();
});

const splitFrontMatter = (text: string) => {
  const match = /^---\n([\s\S]*?)\n---\n\n([\s\S]*)$/.exec(text);
  if (!match) throw new Error(`no front matter in:\n${text}`);
  return { front: parseYaml(match[1]) as Record<string, unknown>, body: match[2] };
};

describe('an article as Markdown', () => {
  it('answers ?format=md with front matter holding the JSON record’s fields, and the content under the title', async () => {
    const json = (await app.api().get('/api/artikel/night-market').expect(200)).body.data;
    const answer = await app.api().get('/api/artikel/night-market?format=md').expect(200);
    expect(answer.headers['content-type']).toBe('text/markdown; charset=utf-8');
    const { front, body } = splitFrontMatter(answer.text);
    for (const field of ['title', 'slug', 'summary', 'author', 'reading_time', 'published_at', 'updated_at', 'status'])
      expect(front[field]).toEqual(json[field]);
    expect(front.category).toBe(json.category.name);
    expect(front.tags).toBe(json.tags.join(', '));
    const html = new MarkdownIt().render(body);
    expect(html).toContain('<h1>Night market, in Markdown</h1>');
    expect(html).toContain('<strong>stalls</strong>');
    expect(html).toContain('<li>martabak</li>');
  });

  it('is chosen by Accept: text/markdown too, varies by Accept, and counts a view like the JSON read', async () => {
    const before = (await app.api().get('/api/artikel/night-market').expect(200)).body.data.views;
    const answer = await app.api().get('/api/artikel/night-market').set('Accept', 'text/markdown').expect(200);
    expect(answer.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(answer.headers.vary).toMatch(/Accept/);
    const after = (await app.api().get('/api/artikel/night-market').expect(200)).body.data.views;
    expect(after).toBe(before + 2);
    // A browser's Accept (HTML first, then anything) still gets JSON.
    const browser = await app.api().get('/api/artikel/night-market').set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8').expect(200);
    expect(browser.headers['content-type']).toMatch(/^application\/json/);
  });

  it('turns HTML content into Markdown', async () => {
    const { body } = splitFrontMatter((await app.api().get('/api/artikel/rain-tram?format=md').expect(200)).text);
    expect(body).toContain('## Window seat');
    expect(body).toContain('Drops on the **glass** and a [reflection](https://studio.example).');
    expect(body).not.toMatch(/<\/?(p|strong|h2|a)\b/);
  });

  it('answers a revalidation with its ETag with a 304, and another format with a 400 naming format', async () => {
    const first = await app.api().get('/api/artikel/night-market?format=md').expect(200);
    await app
      .api()
      .get('/api/artikel/night-market?format=md')
      .set('If-None-Match', first.headers.etag as string)
      .expect(304);
    const refused = await app.api().get('/api/artikel/night-market?format=pdf').expect(400);
    expect(refused.body.error.details.errors[0].path).toEqual(['format']);
  });
});

describe('lists as CSV', () => {
  it('answers ?format=csv with a header row and the JSON list’s summaries, field by field', async () => {
    const json = (await app.api().get('/api/artikel?kategori=street').expect(200)).body.data;
    const answer = await app.api().get('/api/artikel?kategori=street&format=csv').expect(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.text).toContain('\r\n');
    const [header, ...rows] = parseCsv(answer.text) as string[][];
    expect(header).toEqual(CSV_HEADER);
    expect(rows).toHaveLength(json.length);
    rows.forEach((row, index) => {
      const item = json[index];
      const record = Object.fromEntries(header.map((name, column) => [name, row[column]]));
      expect(record.id).toBe(item.id);
      expect(record.slug).toBe(item.slug);
      expect(record.summary).toBe(item.summary);
      expect(record.category).toBe(item.category.name);
      expect(record.author).toBe(item.author);
      expect(Number(record.reading_time)).toBe(item.reading_time);
      expect(record.published_at).toBe(item.published_at);
      if (item.slug !== 'formula-title') {
        expect(record.title).toBe(item.title);
        expect(record.tags).toBe(item.tags.join(', '));
      }
    });
  });

  it('makes cells that start like a formula inert text', async () => {
    const [header, ...rows] = parseCsv((await app.api().get('/api/artikel?format=csv').expect(200)).text) as string[][];
    const row = rows.find((cells) => cells[header.indexOf('slug')] === 'formula-title') ?? [];
    expect(row[header.indexOf('title')]).toBe('\'=HYPERLINK("https://evil.example","click")');
    expect(row[header.indexOf('tags')]).toBe("'+cmd, @sum");
  });

  it('gives the latest as CSV too, and refuses another format with a 400 naming format', async () => {
    const json = (await app.api().get('/api/artikel/latest').expect(200)).body.data;
    const [, ...rows] = parseCsv((await app.api().get('/api/artikel/latest?format=csv').expect(200)).text) as string[][];
    expect(rows.map((row) => row[0])).toEqual(json.map((item: { id: string }) => item.id));
    const refused = await app.api().get('/api/artikel?format=xlsx').expect(400);
    expect(refused.body.error.details.errors[0].path).toEqual(['format']);
  });
});

describe('llms.txt', () => {
  it('tells an agent the reads, the writes and the MCP tools, with the service’s own addresses', async () => {
    const answer = await app.api().get('/api/artikel/llms.txt').expect(200);
    expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(answer.text).toMatch(/^# Studio article API/);
    expect(answer.text).toContain('https://api.studio.example/api/artikel/openapi.json');
    expect(answer.text).toContain('https://api.studio.example/mcp');
    for (const tool of [
      'artikel_search',
      'artikel_get',
      'artikel_categories',
      'artikel_latest',
      'artikel_create',
      'artikel_update',
      'artikel_delete',
    ])
      expect(answer.text).toContain(tool);
    await app
      .api()
      .get('/api/artikel/llms.txt')
      .set('If-None-Match', answer.headers.etag as string)
      .expect(304);
  });
});
