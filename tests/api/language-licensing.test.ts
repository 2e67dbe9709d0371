import { types } from 'node:util';
import Parser from 'rss-parser';
import { parse as parseYaml } from 'yaml';
import { ARTICLE_UID, createCategory, createMediaFile } from '../helpers/fixtures';
import { SITE_ARTICLE_URL } from '../helpers/public-reads';
import { startStrapi, type TestApp } from '../helpers/strapi';

/**
 * The language the studio writes in (ARTIKEL_LANGUAGE, `id` by default) where the service names
 * one, and the licensing of every image in json_ld (Google's licensable-image fields): the studio
 * as creator and credit, a copyright notice, a license URL when one is configured.
 */

const parser = new Parser();

interface ImageObject {
  '@type': string;
  contentUrl: string;
  url: string;
  creator: { '@type': string; name: string };
  creditText: string;
  copyrightNotice: string;
  license?: string;
  acquireLicensePage?: string;
}

interface Served {
  rss: string;
  atom: string;
  json: Record<string, unknown>;
  posting: { inLanguage: string; image: ImageObject[]; datePublished: string };
  article: { cover_image_url: string; gallery: Array<{ url: string }>; published_at: string };
  markdown: string;
  openApi: OpenApiDocument;
  llms: string;
}

interface OpenApiDocument {
  components: { schemas: Record<string, { properties: Record<string, { examples?: unknown[] }> }> };
}

/** Publishes an article with a linked cover and an uploaded gallery photo. */
async function seed(app: TestApp): Promise<void> {
  const category = await createCategory(app.strapi, 'Portraits', 'portraits');
  const gallery = await createMediaFile(app.strapi, 'window-1.jpg', 1200, 800);
  await app.strapi.documents(ARTICLE_UID).create({
    data: {
      title: 'Window light',
      slug: 'window-light',
      category,
      cover_image_url: 'https://cdn.studio.example/window.jpg',
      content: 'Soft light from the north.',
      gallery: [gallery],
    },
    status: 'published',
  });
}

/** Everything that names the language or the images' rights, read once with supertest and once with Node's fetch(). */
async function readAll(app: TestApp): Promise<{ supertest: Served; fetch: Served }> {
  const api = app.api();
  const article = (await api.get('/api/artikel/window-light').expect(200)).body.data;
  const viaSupertest: Served = {
    rss: (await api.get('/api/artikel/feed/rss').expect(200)).text,
    atom: (await api.get('/api/artikel/feed/atom').expect(200)).text,
    json: JSON.parse((await api.get('/api/artikel/feed/json').expect(200)).text) as Record<string, unknown>,
    posting: JSON.parse(article.json_ld),
    article,
    markdown: (await api.get('/api/artikel/window-light?format=md').expect(200)).text,
    openApi: (await api.get('/api/artikel/openapi.json').expect(200)).body,
    llms: (await api.get('/api/artikel/llms.txt').expect(200)).text,
  };
  const base = await app.baseUrl();
  const text = async (path: string): Promise<string> => {
    const response = await fetch(`${base}${path}`);
    expect(response.status).toBe(200);
    return response.text();
  };
  const fetchedArticle = JSON.parse(await text('/api/artikel/window-light')).data;
  const viaFetch: Served = {
    rss: await text('/api/artikel/feed/rss'),
    atom: await text('/api/artikel/feed/atom'),
    json: JSON.parse(await text('/api/artikel/feed/json')) as Record<string, unknown>,
    posting: JSON.parse(fetchedArticle.json_ld),
    article: fetchedArticle,
    markdown: await text('/api/artikel/window-light?format=md'),
    openApi: JSON.parse(await text('/api/artikel/openapi.json')) as OpenApiDocument,
    llms: await text('/api/artikel/llms.txt'),
  };
  return { supertest: viaSupertest, fetch: viaFetch };
}

/** The language each representation names. */
async function languagesNamed(served: Served) {
  const rss = await parser.parseString(served.rss);
  const front = parseYaml(/^---\n([\s\S]*?)\n---\n/.exec(served.markdown)?.[1] ?? '') as Record<string, unknown>;
  return {
    rss: (rss as { language?: string }).language,
    // The feed's own words, in that language where the service has them (else English).
    description: rss.description,
    atom: /^<\?xml[^>]*>\s*<feed [^>]*xml:lang="([^"]*)"/.exec(served.atom)?.[1],
    json: served.json.language,
    jsonVersion: served.json.version,
    jsonLd: served.posting.inLanguage,
    markdown: front.language,
    openApiPosting: served.openApi.components.schemas.BlogPosting.properties.inLanguage.examples,
  };
}

const yearOf = (date: string) => new Date(date).getUTCFullYear();

describe('with the default settings', () => {
  let app: TestApp;
  let served: { supertest: Served; fetch: Served };

  beforeAll(async () => {
    app = await startStrapi({
      env: {
        SITE_ARTICLE_URL,
        ARTIKEL_LANGUAGE: undefined,
        ARTIKEL_COPYRIGHT_NOTICE: undefined,
        ARTIKEL_LICENSE_URL: undefined,
        ARTIKEL_ACQUIRE_LICENSE_URL: undefined,
      },
    });
    await seed(app);
    served = await readAll(app);
  });
  afterAll(() => app.stop());

  it.each(['supertest', 'fetch'] as const)(
    'names Indonesian (id) in every feed, in json_ld, in the Markdown and in the OpenAPI examples (%s)',
    async (client) => {
      expect(await languagesNamed(served[client])).toEqual({
        rss: 'id',
        description: 'Artikel terbaru dari Lichtbild Studio',
        atom: 'id',
        json: 'id',
        jsonVersion: 'https://jsonfeed.org/version/1.1',
        jsonLd: 'id',
        markdown: 'id',
        openApiPosting: ['id'],
      });
      expect(served[client].llms).toContain('written in Indonesian (id)');
    },
  );

  it.each(['supertest', 'fetch'] as const)(
    'marks every image in json_ld with the studio as creator and credit and the default notice, and no license (%s)',
    (client) => {
      const { posting, article } = served[client];
      const notice = `© ${yearOf(article.published_at)} Lichtbild Studio`;
      expect(posting.image).toEqual(
        [article.cover_image_url, ...article.gallery.map((photo) => photo.url)].map((url) => ({
          '@type': 'ImageObject',
          contentUrl: url,
          url,
          creator: { '@type': 'Organization', name: 'Lichtbild Studio' },
          creditText: 'Lichtbild Studio',
          copyrightNotice: notice,
        })),
      );
      expect(posting.image).toHaveLength(2);
    },
  );

  it('puts the same notice in the RSS and Atom feeds', async () => {
    const notice = `© ${yearOf(served.supertest.article.published_at)} Lichtbild Studio`;
    expect((await parser.parseString(served.supertest.rss)).copyright).toBe(notice);
    expect(served.supertest.atom).toContain(`<rights>${notice}</rights>`);
  });
});

describe('with a language, notice and license configured', () => {
  let app: TestApp;
  let served: { supertest: Served; fetch: Served };

  beforeAll(async () => {
    app = await startStrapi({
      env: {
        SITE_ARTICLE_URL,
        ARTIKEL_LANGUAGE: 'EN-gb',
        ARTIKEL_COPYRIGHT_NOTICE: 'Photos {studio}, {year}. All rights reserved.',
        ARTIKEL_LICENSE_URL: 'https://studio.example/lisensi',
        ARTIKEL_ACQUIRE_LICENSE_URL: 'https://studio.example/beli?foto=1',
      },
    });
    await seed(app);
    served = await readAll(app);
  });
  afterAll(() => app.stop());

  it.each(['supertest', 'fetch'] as const)('names the configured language, in its canonical form, everywhere (%s)', async (client) => {
    expect(await languagesNamed(served[client])).toEqual({
      rss: 'en-GB',
      description: 'The newest articles of Lichtbild Studio',
      atom: 'en-GB',
      json: 'en-GB',
      jsonVersion: 'https://jsonfeed.org/version/1.1',
      jsonLd: 'en-GB',
      markdown: 'en-GB',
      openApiPosting: ['en-GB'],
    });
    expect(served[client].llms).toContain('written in British English (en-GB)');
  });

  it.each(['supertest', 'fetch'] as const)('gives every image the configured notice, license and page to acquire one (%s)', (client) => {
    const { posting, article } = served[client];
    expect(posting.image).toHaveLength(2);
    for (const image of posting.image) {
      expect(image).toMatchObject({
        '@type': 'ImageObject',
        creator: { '@type': 'Organization', name: 'Lichtbild Studio' },
        creditText: 'Lichtbild Studio',
        copyrightNotice: `Photos Lichtbild Studio, ${yearOf(article.published_at)}. All rights reserved.`,
        license: 'https://studio.example/lisensi',
        acquireLicensePage: 'https://studio.example/beli?foto=1',
      });
    }
  });
});

describe('a setting out of bounds', () => {
  it.each([
    [{ ARTIKEL_LANGUAGE: 'en_US' }, 'ARTIKEL_LANGUAGE must be a BCP 47 language tag of at most 35 characters, e.g. id, en or en-GB'],
    [{ ARTIKEL_LANGUAGE: 'x'.repeat(36) }, 'ARTIKEL_LANGUAGE must be a BCP 47 language tag of at most 35 characters'],
    [{ ARTIKEL_LICENSE_URL: 'ftp://studio.example/license' }, 'ARTIKEL_LICENSE_URL must be an http(s) URL of at most 2000 characters'],
    [
      { ARTIKEL_ACQUIRE_LICENSE_URL: 'javascript:alert(1)' },
      'ARTIKEL_ACQUIRE_LICENSE_URL must be an http(s) URL of at most 2000 characters',
    ],
    [{ ARTIKEL_COPYRIGHT_NOTICE: 'x'.repeat(201) }, 'ARTIKEL_COPYRIGHT_NOTICE must be 1 to 200 characters without control characters'],
    [{ ARTIKEL_COPYRIGHT_NOTICE: '© {yaer} {studio}' }, 'ARTIKEL_COPYRIGHT_NOTICE may name {year} and {studio} only, not {yaer}'],
    [{ STUDIO_NAME: 'S'.repeat(201) }, 'STUDIO_NAME must be 1 to 200 characters without control characters'],
  ])('stops the start with a message naming the setting: %j', async (env, message) => {
    const outcome = await startStrapi({ env }).then(
      (app) => app,
      (error: unknown) => error,
    );
    // A service that starts anyway is stopped, so the failure is reported and the run ends. (Strapi
    // runs outside Jest's sandbox, see host-modules.ts: its errors are not the sandbox's `Error`.)
    if (!types.isNativeError(outcome)) {
      await (outcome as TestApp).stop();
      throw new Error(`the service started with ${JSON.stringify(env)}`);
    }
    expect(outcome.message).toContain(message);
  });
});
