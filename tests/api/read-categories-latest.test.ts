import openApiDocument from '../../src/plugins/artikel/server/src/openapi/openapi.json';
import { ARTICLE_UID, createArticle, createCategory, createMediaFile } from '../helpers/fixtures';
import { startStrapi, type TestApp } from '../helpers/strapi';

let app: TestApp;

beforeAll(async () => {
  app = await startStrapi();
  const weddings = await createCategory(app.strapi, 'weddings', 'weddings');
  const astro = await createCategory(app.strapi, 'Astrophotography', 'astrophotography');
  await createCategory(app.strapi, 'Empty shelf', 'empty-shelf');
  const animals = await createCategory(app.strapi, 'animals', 'animals');
  for (let index = 1; index <= 6; index += 1) {
    await createArticle(app.strapi, { title: `Wedding story ${index}`, slug: `wedding-story-${index}`, category: weddings });
  }
  await createArticle(app.strapi, { title: 'Milky way', slug: 'milky-way', category: astro });
  await createArticle(app.strapi, { title: 'Unreleased comet', slug: 'unreleased-comet', category: astro, status: 'draft' });
  await createArticle(app.strapi, { title: 'Only a draft animal', slug: 'draft-animal', category: animals, status: 'draft' });
  const cover = await createMediaFile(app.strapi, 'cover.jpg', 1600, 900);
  const first = await createMediaFile(app.strapi, 'first.jpg', 800, 600);
  const second = await createMediaFile(app.strapi, 'second.jpg', 600, 800);
  await app.strapi.documents(ARTICLE_UID).create({
    data: {
      title: 'Gallery night',
      slug: 'gallery-night',
      content: 'Pictures.',
      category: astro,
      cover,
      gallery: [first, second],
    } as never,
    status: 'published',
  });
});

afterAll(async () => {
  await app.stop();
});

describe('GET /api/artikel/categories', () => {
  it('lists every category by name with its count of published articles, empty ones included', async () => {
    const response = await app.api().get('/api/artikel/categories').expect(200);
    expect(response.body).toEqual({
      data: [
        { name: 'animals', slug: 'animals', article_count: 0 },
        { name: 'Astrophotography', slug: 'astrophotography', article_count: 2 },
        { name: 'Empty shelf', slug: 'empty-shelf', article_count: 0 },
        { name: 'weddings', slug: 'weddings', article_count: 6 },
      ],
    });
  });
});

describe('GET /api/artikel/latest', () => {
  it('returns the 5 newest published articles, newest first', async () => {
    const response = await app.api().get('/api/artikel/latest').expect(200);
    expect(Object.keys(response.body)).toEqual(['data']);
    expect(response.body.data.map((article: { slug: string }) => article.slug)).toEqual([
      'gallery-night',
      'milky-way',
      'wedding-story-6',
      'wedding-story-5',
      'wedding-story-4',
    ]);
  });
});

describe('media from the Media Library', () => {
  it('serves the gallery with url, alt, caption and size, in order', async () => {
    const { body } = await app.api().get('/api/artikel/gallery-night').expect(200);
    expect(body.data.gallery).toEqual([
      {
        url: '/uploads/first.jpg',
        alt: 'Alt of first.jpg',
        caption: 'Caption of first.jpg',
        width: 800,
        height: 600,
        aspect_ratio: 1.3333,
        mime: 'image/jpeg',
        formats: [],
        srcset: '/uploads/first.jpg 800w',
        // A file record written without an upload: no renditions, placeholder, colour or camera data.
        sources: [{ type: 'image/jpeg', srcset: '/uploads/first.jpg 800w' }],
        placeholder: null,
        color: null,
        exif: null,
      },
      {
        url: '/uploads/second.jpg',
        alt: 'Alt of second.jpg',
        caption: 'Caption of second.jpg',
        width: 600,
        height: 800,
        aspect_ratio: 0.75,
        mime: 'image/jpeg',
        formats: [],
        srcset: '/uploads/second.jpg 600w',
        // A file record written without an upload: no renditions, placeholder, colour or camera data.
        sources: [{ type: 'image/jpeg', srcset: '/uploads/second.jpg 600w' }],
        placeholder: null,
        color: null,
        exif: null,
      },
    ]);
  });

  it('uses the uploaded cover when no cover_image_url is given, in the list and the article', async () => {
    const { body } = await app.api().get('/api/artikel/gallery-night').expect(200);
    expect(body.data.cover_image_url).toBe('/uploads/cover.jpg');
    const list = await app.api().get('/api/artikel/latest').expect(200);
    expect(list.body.data[0].cover_image_url).toBe('/uploads/cover.jpg');
  });
});

describe('drafts', () => {
  it('are in no public read: list, search, category filter, slug, latest, related or counts', async () => {
    const list = await app.api().get('/api/artikel?limit=50').expect(200);
    const search = await app.api().get('/api/artikel?q=comet').expect(200);
    const byCategory = await app.api().get('/api/artikel?kategori=animals').expect(200);
    const latest = await app.api().get('/api/artikel/latest').expect(200);
    const related = await app.api().get('/api/artikel/milky-way').expect(200);
    const everything = JSON.stringify([list.body, search.body, byCategory.body, latest.body, related.body]);
    expect(everything).not.toMatch(/unreleased-comet|draft-animal|Unreleased comet/);
    expect(list.body.meta.pagination.total).toBe(8);
    expect(search.body.data).toEqual([]);
    expect(byCategory.body.data).toEqual([]);
    await app.api().get('/api/artikel/unreleased-comet').expect(404);
  });

  it('never leak internal fields such as createdBy, ids or passwords', async () => {
    const { body } = await app.api().get('/api/artikel/milky-way').expect(200);
    expect(JSON.stringify(body)).not.toMatch(/createdBy|updatedBy|created_by|password|documentId|"locale"/);
  });
});

describe('GET /api/artikel/openapi.json', () => {
  it('serves the OpenAPI document kept in the repository, to anyone', async () => {
    const response = await app
      .api()
      .get('/api/artikel/openapi.json')
      .expect(200)
      .expect('Content-Type', /application\/json/);
    expect(response.body).toEqual(openApiDocument);
    expect(response.body.openapi).toBe('3.1.0');
  });

  it('refuses query parameters, as the other reads do', async () => {
    const response = await app.api().get('/api/artikel/openapi.json?format=yaml').expect(400);
    expect(response.body.error.details.errors[0].path).toEqual(['format']);
  });
});
