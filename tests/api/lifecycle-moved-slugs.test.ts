import { expectEverywhere, pageOf, publicPresence, SITE_ARTICLE_URL } from '../helpers/public-reads';
import { isContractError } from '../helpers/robustness';
import { startStrapi, type TestApp } from '../helpers/strapi';

let app: TestApp;
let counter = 0;

beforeAll(async () => {
  app = await startStrapi({ token: 'full-access', category: true, env: { SITE_ARTICLE_URL } });
});

afterAll(async () => {
  await app.stop();
});

interface Article {
  id: string;
  slug: string;
  title: string;
  views: number;
  status: string;
}

async function create(fields: Record<string, string> = {}): Promise<Article> {
  counter += 1;
  const body = { title: `Window light study ${counter}`, category: 'Studio', content: `North window ${counter}. Soft.`, ...fields };
  return (await app.api().post('/api/artikel').set(app.auth()).send(body).expect(201)).body.data as Article;
}

const patch = (slug: string, body: object) => app.api().patch(`/api/artikel/${slug}`).set(app.auth()).send(body);

/** A slug no other test uses. */
function freshSlug(words: string): string {
  counter += 1;
  return `${words}-${counter}`;
}

function refusedFields(body: { error: { details: { errors: Array<{ path: string[] }> } } }): string[] {
  return body.error.details.errors.map((error) => error.path.join('.')).sort();
}

describe('PATCH with a new slug', () => {
  it('moves the article: 200 with the new slug, the new slug serves it, the old one answers 301 to it', async () => {
    const article = await create();
    const target = freshSlug('north-window');
    const moved = await patch(article.slug, { slug: target }).expect(200);
    expect(moved.body.data).toMatchObject({ id: article.id, slug: target, title: article.title });

    const read = await app.api().get(`/api/artikel/${target}`).expect(200);
    expect(read.body.data.id).toBe(article.id);
    const redirect = await app.api().get(`/api/artikel/${article.slug}`).expect(301);
    expect(redirect.headers.location).toBe(`/api/artikel/${target}`);
  });

  it('normalizes the new slug the way generated slugs are', async () => {
    const article = await create();
    counter += 1;
    const moved = await patch(article.slug, { slug: `  Window Light, Again ${counter}!  ` }).expect(200);
    expect(moved.body.data.slug).toBe(`window-light-again-${counter}`);
    await app.api().get(`/api/artikel/window-light-again-${counter}`).expect(200);
  });

  it('counts no view for a request to the old slug', async () => {
    const article = await create();
    const target = freshSlug('counted-once');
    await patch(article.slug, { slug: target }).expect(200);
    const first = (await app.api().get(`/api/artikel/${target}`).expect(200)).body.data.views as number;
    await app.api().get(`/api/artikel/${article.slug}`).expect(301);
    await app.api().get(`/api/artikel/${article.slug}`).expect(301);
    await app.api().head(`/api/artikel/${article.slug}`).expect(301);
    const next = (await app.api().get(`/api/artikel/${target}`).expect(200)).body.data.views as number;
    expect(next).toBe(first + 1);
  });

  it('answers HEAD on the old slug with the same 301 and Location, without a body', async () => {
    const article = await create();
    const target = freshSlug('head-moved');
    await patch(article.slug, { slug: target }).expect(200);
    const head = await app.api().head(`/api/artikel/${article.slug}`).expect(301);
    expect(head.headers.location).toBe(`/api/artikel/${target}`);
    expect(head.text ?? '').toBe('');
  });

  it('sends every old slug of an article moved twice to its current slug in one hop', async () => {
    const article = await create();
    const b = freshSlug('second-home');
    const c = freshSlug('third-home');
    await patch(article.slug, { slug: b }).expect(200);
    await patch(b, { slug: c }).expect(200);
    for (const old of [article.slug, b]) {
      const redirect = await app.api().get(`/api/artikel/${old}`).expect(301);
      expect(redirect.headers.location).toBe(`/api/artikel/${c}`);
    }
    await app.api().get(`/api/artikel/${c}`).expect(200);
  });

  it('lets the article move back to an old slug, which then is its current slug again', async () => {
    const article = await create();
    const away = freshSlug('away');
    await patch(article.slug, { slug: away }).expect(200);
    const back = await patch(away, { slug: article.slug }).expect(200);
    expect(back.body.data.slug).toBe(article.slug);
    const read = await app.api().get(`/api/artikel/${article.slug}`).expect(200);
    expect(read.body.data.id).toBe(article.id);
    const redirect = await app.api().get(`/api/artikel/${away}`).expect(301);
    expect(redirect.headers.location).toBe(`/api/artikel/${article.slug}`);
  });

  it('shows the old slug in no list, feed or sitemap, and the article there once under its new slug', async () => {
    const article = await create();
    const target = freshSlug('listed-once');
    await patch(article.slug, { slug: target }).expect(200);

    expectEverywhere(await publicPresence(app, target));
    const old = await publicPresence(app, article.slug);
    expect({ inList: old.inList, inLatest: old.inLatest, inFeed: old.inFeed, inSitemap: old.inSitemap }).toEqual({
      inList: false,
      inLatest: false,
      inFeed: false,
      inSitemap: false,
    });
    const feed = (await app.api().get('/api/artikel/feed/rss?kategori=studio').expect(200)).text;
    expect(feed).not.toContain(`${pageOf(article.slug)}<`);
    expect(feed).toContain(`${pageOf(target)}<`);
  });

  it('moves a draft too: its old slug still reveals nothing while it is unpublished', async () => {
    const draft = await create({ status: 'draft' });
    const target = freshSlug('draft-moved');
    const moved = await patch(draft.slug, { slug: target }).expect(200);
    expect(moved.body.data).toMatchObject({ slug: target, status: 'draft' });
    await app.api().get(`/api/artikel/${draft.slug}`).expect(404);
    await app.api().get(`/api/artikel/${target}`).expect(404);
    await patch(target, { status: 'published' }).expect(200);
    const redirect = await app.api().get(`/api/artikel/${draft.slug}`).expect(301);
    expect(redirect.headers.location).toBe(`/api/artikel/${target}`);
  });
});

describe('old slugs stay reserved', () => {
  it("refuses another article's PATCH to an old slug with a 409, and changes nothing", async () => {
    const owner = await create();
    await patch(owner.slug, { slug: freshSlug('owner-moved') }).expect(200);
    const other = await create();
    const refused = await patch(other.slug, { slug: owner.slug }).expect(409);
    expect(isContractError(refused)).toBe(true);
    expect(refused.body.error.name).toBe('ConflictError');
    await app.api().get(`/api/artikel/${other.slug}`).expect(200);
  });

  it('refuses a POST with an old slug as its explicit slug with a 409, and stores nothing', async () => {
    const owner = await create();
    const target = freshSlug('owner-away');
    await patch(owner.slug, { slug: target }).expect(200);
    const total = (await app.api().get('/api/artikel?limit=1').expect(200)).body.meta.pagination.total as number;
    const refused = await app
      .api()
      .post('/api/artikel')
      .set(app.auth())
      .send({ title: 'Squatter', category: 'Studio', content: 'Wants the old address.', slug: owner.slug })
      .expect(409);
    expect(refused.body.error.name).toBe('ConflictError');
    expect((await app.api().get('/api/artikel?limit=1').expect(200)).body.meta.pagination.total).toBe(total);
    const redirect = await app.api().get(`/api/artikel/${owner.slug}`).expect(301);
    expect(redirect.headers.location).toBe(`/api/artikel/${target}`);
  });

  it('gives a POST without a slug, whose title makes an old slug, a free slug instead of the old one', async () => {
    counter += 1;
    const title = `Held address ${counter}`;
    const owner = await create({ title });
    const target = freshSlug('held-elsewhere');
    await patch(owner.slug, { slug: target }).expect(200);
    const newcomer = await create({ title });
    expect(newcomer.slug).not.toBe(owner.slug);
    expect((await app.api().get(`/api/artikel/${owner.slug}`).expect(301)).headers.location).toBe(`/api/artikel/${target}`);
  });
});

describe('slugs a PATCH may not set', () => {
  it('refuses a fixed route word with a 400 naming slug', async () => {
    const article = await create();
    for (const word of ['categories', 'latest']) {
      const refused = await patch(article.slug, { slug: word }).expect(400);
      expect(isContractError(refused)).toBe(true);
      expect(refusedFields(refused.body)).toEqual(['slug']);
    }
    await app.api().get(`/api/artikel/${article.slug}`).expect(200);
  });

  it("refuses another article's current slug with a 409", async () => {
    const first = await create();
    const second = await create();
    const refused = await patch(second.slug, { slug: first.slug }).expect(409);
    expect(refused.body.error.name).toBe('ConflictError');
    expect((await app.api().get(`/api/artikel/${first.slug}`).expect(200)).body.data.id).toBe(first.id);
    expect((await app.api().get(`/api/artikel/${second.slug}`).expect(200)).body.data.id).toBe(second.id);
  });

  it('refuses an empty slug with a 400 naming slug', async () => {
    const article = await create();
    const refused = await patch(article.slug, { slug: '' }).expect(400);
    expect(refusedFields(refused.body)).toEqual(['slug']);
    await app.api().get(`/api/artikel/${article.slug}`).expect(200);
  });
});
