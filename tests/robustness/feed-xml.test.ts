import sax from 'sax';
import { startStrapi, type TestApp } from '../helpers/strapi';

let app: TestApp;

// Characters XML 1.0 does not allow anywhere in a document (its Char production).
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const COVER = 'https://cdn.studio.example/foto.jpg?w=800&h=600&sig=a<b>"c';

/** Why a text is not well-formed XML 1.0, or an empty list: a strict parser's errors, forbidden characters, a raw "<" in an attribute. */
function xmlProblems(xml: string): string[] {
  const problems: string[] = [];
  const parser = sax.parser(true);
  parser.onerror = (error) => {
    problems.push(error.message.split('\n')[0]);
    parser.error = null as unknown as Error;
    parser.resume();
  };
  parser.write(xml).close();
  if (NOT_XML.test(xml))
    problems.push(`a character XML forbids: U+${(xml.match(NOT_XML)?.[0].codePointAt(0) ?? 0).toString(16).toUpperCase()}`);
  for (const attribute of xml.match(/="[^"]*"/g) ?? []) if (attribute.includes('<')) problems.push(`"<" in an attribute: ${attribute}`);
  return problems;
}

/** The attribute values the strict parser read, by element name. */
function attributesOf(xml: string, element: string, attribute: string): string[] {
  const values: string[] = [];
  const parser = sax.parser(true);
  parser.onopentag = (tag) => {
    const value = tag.attributes[attribute];
    if (tag.name === element && typeof value === 'string') values.push(value);
  };
  parser.onerror = () => {
    parser.error = null as unknown as Error;
    parser.resume();
  };
  parser.write(xml).close();
  return values;
}

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access' });
  await app
    .api()
    .post('/api/artikel')
    .set(app.auth())
    .send({
      title: 'Kontrol \u0001 vertikal \u000b bukan \ufffe karakter',
      summary: 'Ringkasan \u0002 dengan \u001f kontrol & <tanda>',
      author: 'Penulis \u0007 & <b>',
      tags: 'tag\u0003satu, dua',
      category: 'Kat \u0004 egori',
      cover_image_url: COVER,
      content: 'Isi \u0005 dengan \u000c kontrol \ud800 dan \udfff.',
    })
    .expect(201);
});

afterAll(async () => {
  await app.stop();
});

describe('feeds and the sitemap are well-formed XML whatever the articles hold', () => {
  it.each(['rss', 'atom'])('the %s feed parses strictly, and its enclosure is the cover URL', async (format) => {
    const feed = (await app.api().get(`/api/artikel/feed/${format}`).expect(200)).text;
    expect(xmlProblems(feed)).toEqual([]);
    const enclosures =
      format === 'rss'
        ? attributesOf(feed, 'enclosure', 'url')
        : attributesOf(feed, 'link', 'href').filter((href) => href.startsWith('https://cdn.'));
    expect(enclosures).toEqual([COVER]);
    expect(feed).toContain('Kontrol  vertikal  bukan  karakter');
  });

  it('the JSON feed keeps the cover URL as it is', async () => {
    const feed = (await app.api().get('/api/artikel/feed/json').expect(200)).body as { items: Array<{ image?: string }> };
    expect(feed.items[0].image).toBe(COVER);
  });

  it('the sitemap parses strictly, with the cover URL as the image', async () => {
    const sitemap = (await app.api().get('/api/artikel/sitemap.xml').expect(200)).text;
    expect(xmlProblems(sitemap)).toEqual([]);
    expect(sitemap).toContain('https://cdn.studio.example/foto.jpg?w=800&amp;h=600');
  });
});
