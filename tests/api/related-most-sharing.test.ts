import { createArticle, createCategory } from '../helpers/fixtures';
import { startStrapi, type TestApp } from '../helpers/strapi';

/**
 * Related articles are ranked by the tags they share, then newest. Only the candidates sharing at
 * least as many tags as the fourth most sharing are looked up and sorted: here the shared counts
 * are 3, 2, 2, 1, 1, so the fourth place goes to the newest of those sharing one tag, not to the
 * newest article of the category, which shares none.
 */

let app: TestApp;

beforeAll(async () => {
  app = await startStrapi({ token: true });
  const studio = await createCategory(app.strapi, 'Studio', 'studio');
  // Oldest first.
  const articles: Array<[slug: string, tags: string]> = [
    ['tiga-sama', 'Lampu, Lensa, Tripod'],
    ['dua-sama-lama', 'Lampu, Lensa'],
    ['dua-sama-baru', 'Lensa, Tripod'],
    ['satu-sama-lama', 'Lampu'],
    ['satu-sama-baru', 'Tripod, Taman'],
  ];
  for (const [slug, tags] of articles) await createArticle(app.strapi, { title: `Artikel ${slug}`, slug, category: studio, tags });
  await createArticle(app.strapi, { title: 'Terbaru tanpa tag', slug: 'terbaru-tanpa-tag', category: studio });
}, 180_000);

afterAll(async () => {
  await app.stop();
});

const EXPECTED = ['tiga-sama', 'dua-sama-baru', 'dua-sama-lama', 'satu-sama-baru'];

describe('related articles among many candidates', () => {
  it('answers a POST with the four sharing the most tags, and a read with the same four', async () => {
    const created = await app
      .api()
      .post('/api/artikel')
      .set(app.auth())
      .send({ title: 'Peralatan studio kecil', category: 'Studio', content: 'Daftar alat.', tags: 'Lampu, Lensa, Tripod, Reflektor' })
      .expect(201);
    expect(created.body.data.related.map((article: { slug: string }) => article.slug)).toEqual(EXPECTED);
    const response = await fetch(`${await app.baseUrl()}/api/artikel/${created.body.data.slug}`);
    expect(response.status).toBe(200);
    const read = (await response.json()) as { data: { related: Array<{ slug: string }> } };
    expect(read.data.related.map((article) => article.slug)).toEqual(EXPECTED);
  });
});
