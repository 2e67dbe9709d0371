// @same-on-every-store: the links' address is configuration, whatever store answers (not run by test:postgres, see jest.config.js)
import { createArticle, createCategory } from '../helpers/fixtures';
import { productionConfigLoad } from '../helpers/production-config';
import { isContractError } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

const HOST_READS = [
  '/api/artikel?limit=1',
  '/api/artikel/feed/rss',
  '/api/artikel/feed/atom',
  '/api/artikel/feed/json',
  '/api/artikel/sitemap.xml',
];

async function seed(app: TestApp): Promise<void> {
  const category = await createCategory(app.strapi, 'Lanskap', 'lanskap');
  for (const index of [1, 2])
    await createArticle(app.strapi, { title: `Kabut ${index}`, slug: `kabut-${index}`, category, content: 'Kabut pagi di lembah.' });
}

describe('without PUBLIC_URL (development): links follow the request', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startStrapi({ env: { PUBLIC_URL: undefined, TRUST_PROXY: undefined } });
    await seed(app);
  });

  afterAll(async () => {
    await app.stop();
  });

  it.each(HOST_READS)('%s says it varies by Host, so no shared cache serves one host the links of another', async (url) => {
    const answer = await app.api().get(url).set('Host', 'evil.example').expect(200);
    expect(answer.headers.vary?.split(/\s*,\s*/)).toContain('Host');
  });

  it.each(HOST_READS.flatMap((url) => ['a>b', '[::1', 'exa mple.com'].map((host) => [url, host])))(
    '%s with Host %s is a 400 naming the Host header, not a 500',
    async (url, host) => {
      const answer = await app.api().get(url).set('Host', host);
      expect(answer.status).toBe(400);
      expect(isContractError(answer)).toBe(true);
      expect(answer.body.error.message).toMatch(/Host/);
    },
  );
});

describe('with PUBLIC_URL: links are always on it', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startStrapi({ env: { PUBLIC_URL: 'https://api.studio.example', TRUST_PROXY: undefined } });
    await seed(app);
  });

  afterAll(async () => {
    await app.stop();
  });

  it('ignores the Host header: the next page, the feed and the sitemap are on PUBLIC_URL, with no Vary on Host', async () => {
    const list = await app.api().get('/api/artikel?limit=1').set('Host', 'evil.example').expect(200);
    // The next page by a cursor: base64url text with one dot.
    expect(list.body.links.next).toMatch(/^https:\/\/api\.studio\.example\/api\/artikel\?limit=1&cursor=[A-Za-z0-9_.-]+$/);
    expect(list.headers.vary ?? '').not.toMatch(/Host/);
    const feed = await app.api().get('/api/artikel/feed/atom').set('Host', 'evil.example').expect(200);
    expect(feed.text).not.toContain('evil.example');
    expect(feed.text).toContain('https://api.studio.example/api/artikel/feed/atom');
    const sitemap = await app.api().get('/api/artikel/sitemap.xml').set('Host', 'a>b').expect(200);
    expect(sitemap.text).toContain('https://api.studio.example/api/artikel/kabut-1');
  });
});

describe('production', () => {
  it('refuses to start without PUBLIC_URL, or with one that is not an absolute http(s) URL, saying what to set', () => {
    for (const publicUrl of [undefined, '', 'studio.example', 'ftp://studio.example']) {
      const loaded = productionConfigLoad({ PUBLIC_URL: publicUrl });
      expect(loaded.status).not.toBe(0);
      expect(loaded.output).toMatch(/PUBLIC_URL .*(is not set|absolute http\(s\) URL).*e\.g\. https:\/\/api\.studio\.example/);
    }
    expect(productionConfigLoad({ PUBLIC_URL: 'https://api.studio.example/' }).status).toBe(0);
  });
});
