import { reportFigure } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

interface CacheUsage {
  entries: number;
  sharedTests: number;
}

interface ListAnswer {
  data: Array<{ title: string }>;
  meta: { pagination: { total: number } };
}

let app: TestApp;

// About 21 KB, the size of a long article: every cached search is tested against it on a write.
const LONG_TEXT = 'Lensa makro menangkap embun di kelopak bunga pada pagi yang tenang. '.repeat(310);

const usage = (): CacheUsage => (app.strapi.plugin('artikel').service('read-cache') as { usage: () => CacheUsage }).usage();

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access' });
  for (let index = 0; index < 5; index += 1) {
    await app
      .api()
      .post('/api/artikel')
      .set(app.auth())
      .send({ title: `Embun pagi ${index}`, category: 'Makro', content: LONG_TEXT })
      .expect(201);
  }
});

afterAll(async () => {
  await app.stop();
});

describe('searches the read cache remembers', () => {
  it('keeps at most 128 distinct searches however many visitors make, so every write tests a bounded number', async () => {
    const searches = Array.from({ length: 400 }, (_unused, index) => `embun kata${index}`);
    for (const q of searches) await app.api().get('/api/artikel').query({ q }).expect(200);
    // Pages of one search share its test: a second page adds no search.
    await app.api().get('/api/artikel').query({ q: searches[399], page: 2 }).expect(200);
    expect(usage().sharedTests).toBe(128);

    const started = performance.now();
    await app
      .api()
      .post('/api/artikel')
      .set(app.auth())
      .send({ title: 'Embun sore', category: 'Makro', content: `${LONG_TEXT} kata7 kata399` })
      .expect(201);
    const writeMs = performance.now() - started;
    reportFigure('write with 400 distinct searches made before it', `${writeMs.toFixed(0)} ms, ${usage().sharedTests} searches remembered`);

    // The search the write changed answers with the new article; a forgotten one is read afresh.
    const changed = (await app.api().get('/api/artikel').query({ q: searches[399] }).expect(200)).body as ListAnswer;
    expect(changed.data.map((article) => article.title)).toEqual(['Embun sore']);
    const forgotten = (await app.api().get('/api/artikel').query({ q: searches[7] }).expect(200)).body as ListAnswer;
    expect(forgotten.data.map((article) => article.title)).toEqual(['Embun sore']);
    const untouched = (await app.api().get('/api/artikel').query({ q: searches[398] }).expect(200)).body as ListAnswer;
    expect(untouched.meta.pagination.total).toBe(0);
  });
});
