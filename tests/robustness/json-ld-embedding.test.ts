import { startStrapi, type TestApp } from '../helpers/strapi';

let app: TestApp;

const HOSTILE = '</script><script>alert(1)</script> & <!-- \u2028\u2029';

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access' });
});

afterAll(async () => {
  await app.stop();
});

/** The page a site builds by printing json_ld as served, as the docs say. */
const pageWith = (jsonLd: string): string => `<html><head><script type="application/ld+json">${jsonLd}</script></head><body></body></html>`;

describe('json_ld printed as served into the page', () => {
  it('cannot close its <script> element, whatever the title, author and description hold, and reads back as the same text', async () => {
    const created = await app
      .api()
      .post('/api/artikel')
      .set(app.auth())
      .send({
        title: `Judul ${HOSTILE}`,
        author: `Penulis ${HOSTILE}`,
        meta_description: `Deskripsi ${HOSTILE}`,
        category: 'Uji',
        content: 'Isi artikel.',
      })
      .expect(201);
    const article = (await app.api().get(`/api/artikel/${created.body.data.slug}`).expect(200)).body.data as {
      title: string;
      author: string;
      json_ld: string;
    };

    const page = pageWith(article.json_ld);
    // The only "</script" and "<" in the page are the page's own.
    expect(page.match(/<\/script/gi)).toHaveLength(1);
    expect(article.json_ld).not.toMatch(/[<>&\u2028\u2029]/);

    const posting = JSON.parse(article.json_ld) as { headline: string; name: string; description: string; author: { name: string } };
    expect(posting.name).toBe(article.title);
    expect(posting.name).toContain(HOSTILE);
    expect(posting.author.name).toBe(`Penulis ${HOSTILE}`);
    expect(posting.description).toBe(`Deskripsi ${HOSTILE}`);
  });
});
