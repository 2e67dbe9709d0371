import { storedRowCounts } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

let app: TestApp;

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access' });
});

afterAll(async () => {
  await app.stop();
});

const post = (body: object, query = '') => app.api().post(`/api/artikel${query}`).set(app.auth()).send(body);

const twiceToldBody = { title: 'Twice told', category: 'Stories', content: 'First.' };

// The first "Twice told", posted by its own test or, when that test has not run, by the helper
// below (each test can run alone: npx jest <file> -t '<name>').
let twiceToldSlug: string | undefined;

/** The slug of the first "Twice told" article. */
async function firstTwiceToldSlug(): Promise<string> {
  if (twiceToldSlug === undefined) twiceToldSlug = (await post(twiceToldBody).expect(201)).body.data.slug as string;
  return twiceToldSlug;
}

/** The fields of an answer that a real create fixes at the moment it stores (ids and dates). */
function withoutStorageFacts(article: Record<string, unknown>) {
  const { id: _id, published_at: _published, updated_at: _updated, created_at: _created, json_ld: jsonLd, ...rest } = article;
  const {
    datePublished: _datePublished,
    dateModified: _dateModified,
    ...posting
  } = JSON.parse(jsonLd as string) as Record<string, unknown>;
  return { ...rest, json_ld: posting };
}

describe('POST /api/artikel?dry_run=true', () => {
  it('answers 200 with the article exactly as a real post would store it, and stores nothing, not even its new category', async () => {
    const body = {
      title: 'A quiet morning shoot',
      category: 'Mornings, dry run',
      content: '## Plan\n\nArrive early. <script>alert(1)</script>\n\n- tripod\n- coffee',
      tags: 'Morning, morning, Light',
    };
    const before = await storedRowCounts(app.strapi);
    const dry = await post(body, '?dry_run=true').expect(200);
    expect(dry.headers.location).toBeUndefined();
    expect(dry.body.meta).toEqual({ dry_run: true });
    expect(await storedRowCounts(app.strapi)).toEqual(before);
    const categories = (await app.api().get('/api/artikel/categories').expect(200)).body.data as Array<{ slug: string }>;
    expect(categories.map((category) => category.slug)).not.toContain('mornings-dry-run');
    await app.api().get(`/api/artikel/${dry.body.data.slug}`).expect(404);

    const real = await post(body).expect(201);
    expect(withoutStorageFacts(dry.body.data)).toEqual(withoutStorageFacts(real.body.data));
    expect(dry.body.data).toMatchObject({
      slug: 'a-quiet-morning-shoot',
      tags: ['Morning', 'Light'],
      category: { name: 'Mornings, dry run' },
      status: 'published',
    });
  });

  it('gives the slug a post would get now, after the articles already there', async () => {
    twiceToldSlug = (await post(twiceToldBody).expect(201)).body.data.slug;
    const dry = await post({ title: 'Twice told', category: 'Stories', content: 'Second.' }, '?dry_run=true').expect(200);
    expect(dry.body.data.slug).toBe('twice-told-2');
    const real = await post({ title: 'Twice told', category: 'Stories', content: 'Second.' }).expect(201);
    expect(real.body.data.slug).toBe('twice-told-2');
  });

  it('refuses what a real post refuses, with the same answer', async () => {
    // The 409 below needs an article that holds the slug.
    expect(await firstTwiceToldSlug()).toBe('twice-told');
    for (const [body, status] of [
      [{ title: '', views: '3' }, 400],
      [{ title: 'Twice told', category: 'Stories', content: 'Third.', slug: 'twice-told' }, 409],
    ] as const) {
      const dry = await post(body, '?dry_run=true').expect(status);
      const real = await post(body).expect(status);
      expect(dry.body).toEqual(real.body);
    }
  });

  it('accepts only true or false as dry_run, and no other query parameter', async () => {
    const response = await post({ title: 'T', category: 'C', content: 'B' }, '?dry_run=yes&draft=1').expect(400);
    expect(response.body.error.details.errors.map((error: { path: string[] }) => error.path[0]).sort()).toEqual(['draft', 'dry_run']);
    await post({ title: 'Not dry', category: 'C', content: 'B' }, '?dry_run=false').expect(201);
  });
});
