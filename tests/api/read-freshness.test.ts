import { ARTICLE_UID, CATEGORY_UID, createArticle } from '../helpers/fixtures';
import { startStrapi, type TestApp } from '../helpers/strapi';

let app: TestApp;

interface Summary {
  slug: string;
  title: string;
  views: number;
  category: { name: string };
}

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: { name: 'Landscapes', slug: 'landscapes' } });
  await createArticle(app.strapi, { title: 'Fog at dawn', slug: 'fog-at-dawn', category: app.categoryId, tags: 'Fog' });
});

afterAll(async () => {
  await app.stop();
});

/** Every public read, so each test first fills whatever the service remembers. */
async function readEverything() {
  const list = (await app.api().get('/api/artikel').expect(200)).body.data as Summary[];
  const latest = (await app.api().get('/api/artikel/latest').expect(200)).body.data as Summary[];
  const categories = (await app.api().get('/api/artikel/categories').expect(200)).body.data as Array<{
    slug: string;
    name: string;
    article_count: number;
  }>;
  const searched = (await app.api().get('/api/artikel?q=hoarfrost').expect(200)).body.data as Summary[];
  const ranked = (await app.api().get('/api/artikel?q=fog&sort=relevance').expect(200)).body.data as Summary[];
  return { list, latest, categories, searched, ranked };
}

const slugs = (summaries: Summary[]) => summaries.map((summary) => summary.slug);

const postFrostOnBirches = () =>
  app
    .api()
    .post('/api/artikel')
    .set(app.auth())
    .send({ title: 'Frost on birches', category: 'Landscapes', content: 'Hoarfrost.', tags: 'Fog' })
    .expect(201);

// "Frost on birches", posted by the first test or, when that test has not run, by the helper below
// (each test can run alone: npx jest <file> -t '<name>'); undefined again once a test deletes it.
let frostSlug: string | undefined;

/** The slug of the published "Frost on birches". */
async function frostOnBirchesSlug(): Promise<string> {
  if (frostSlug === undefined) frostSlug = (await postFrostOnBirches()).body.data.slug as string;
  return frostSlug;
}

describe('public reads after writes', () => {
  it('show an article published through POST at once, everywhere', async () => {
    await readEverything();
    await app.api().get('/api/artikel/frost-on-birches').expect(404);
    frostSlug = (await postFrostOnBirches()).body.data.slug;

    const after = await readEverything();
    expect(slugs(after.list)).toEqual(['frost-on-birches', 'fog-at-dawn']);
    expect(slugs(after.latest)).toEqual(['frost-on-birches', 'fog-at-dawn']);
    expect(slugs(after.searched)).toEqual(['frost-on-birches']);
    expect(after.categories.find((category) => category.slug === 'landscapes')?.article_count).toBe(2);
    await app.api().get('/api/artikel/frost-on-birches').expect(200);
  });

  it('show an edit once it is published, in the list, the article and the related articles of others', async () => {
    expect(await frostOnBirchesSlug()).toBe('frost-on-birches');
    await readEverything();
    await app.api().get('/api/artikel/fog-at-dawn').expect(200);
    const documentId = (await app.strapi.documents(ARTICLE_UID).findFirst({ filters: { slug: 'frost-on-birches' } }))!.documentId;
    await app.strapi.documents(ARTICLE_UID).update({ documentId, data: { title: 'Frost on old birches', content: 'Hoarfrost, edited.' } });
    await app.strapi.documents(ARTICLE_UID).publish({ documentId });

    const after = await readEverything();
    expect(after.list[0].title).toBe('Frost on old birches');
    expect((await app.api().get('/api/artikel/frost-on-birches').expect(200)).body.data.content).toBe('Hoarfrost, edited.');
    const other = (await app.api().get('/api/artikel/fog-at-dawn').expect(200)).body.data;
    expect(other.related.map((article: Summary) => article.title)).toEqual(['Frost on old birches']);
  });

  it('drop an unpublished article from every read, its slug included', async () => {
    expect(await frostOnBirchesSlug()).toBe('frost-on-birches');
    await readEverything();
    await app.api().get('/api/artikel/frost-on-birches').expect(200);
    const documentId = (await app.strapi.documents(ARTICLE_UID).findFirst({ filters: { slug: 'frost-on-birches' } }))!.documentId;
    await app.strapi.documents(ARTICLE_UID).unpublish({ documentId });

    const after = await readEverything();
    expect(slugs(after.list)).toEqual(['fog-at-dawn']);
    expect(slugs(after.searched)).toEqual([]);
    expect(after.categories.find((category) => category.slug === 'landscapes')?.article_count).toBe(1);
    await app.api().get('/api/artikel/frost-on-birches').expect(404);
    expect((await app.api().get('/api/artikel/fog-at-dawn').expect(200)).body.data.related).toEqual([]);

    await app.strapi.documents(ARTICLE_UID).publish({ documentId });
    expect(slugs((await readEverything()).list)).toEqual(['frost-on-birches', 'fog-at-dawn']);
  });

  it('drop a deleted article and show a renamed category', async () => {
    expect(await frostOnBirchesSlug()).toBe('frost-on-birches');
    await readEverything();
    const documentId = (await app.strapi.documents(ARTICLE_UID).findFirst({ filters: { slug: 'frost-on-birches' } }))!.documentId;
    await app.strapi.documents(ARTICLE_UID).delete({ documentId });
    frostSlug = undefined;
    await app.strapi.documents(CATEGORY_UID).update({ documentId: app.categoryId, data: { name: 'Wide landscapes' } });

    const after = await readEverything();
    expect(slugs(after.list)).toEqual(['fog-at-dawn']);
    expect(after.list[0].category.name).toBe('Wide landscapes');
    expect(after.categories.map((category) => category.name)).toEqual(['Wide landscapes']);
    await app.api().get('/api/artikel/frost-on-birches').expect(404);
  });

  it('count every read of a remembered article and show current views in lists and related articles', async () => {
    await createArticle(app.strapi, { title: 'Fog over the river', slug: 'fog-river', category: app.categoryId, tags: 'Fog' });
    await readEverything();
    const before = (await app.api().get('/api/artikel/fog-at-dawn').expect(200)).body.data.views as number;
    for (let read = 1; read <= 3; read += 1) {
      expect((await app.api().get('/api/artikel/fog-at-dawn').expect(200)).body.data.views).toBe(before + read);
    }
    const { list, latest, ranked } = await readEverything();
    expect(list.find((article) => article.slug === 'fog-at-dawn')?.views).toBe(before + 3);
    expect(latest.find((article) => article.slug === 'fog-at-dawn')?.views).toBe(before + 3);
    expect(ranked.find((article) => article.slug === 'fog-at-dawn')?.views).toBe(before + 3);
    const river = (await app.api().get('/api/artikel/fog-river').expect(200)).body.data;
    expect(river.related.find((article: Summary) => article.slug === 'fog-at-dawn')?.views).toBe(before + 3);
  });
});
