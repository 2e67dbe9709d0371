import { ARTICLE_UID, createArticle, createCategory, storedViews, totalStoredViews } from '../helpers/fixtures';
import { startStrapi, type TestApp } from '../helpers/strapi';

let app: TestApp;
let weddings: string;
let portraits: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  app = await startStrapi();
  weddings = await createCategory(app.strapi, 'Weddings', 'weddings');
  portraits = await createCategory(app.strapi, 'Portraits', 'portraits');
  ids.main = await createArticle(app.strapi, {
    title: 'Planning a barn wedding',
    slug: 'barn-wedding',
    category: weddings,
    tags: 'Wedding, Barn, Rustic',
    content: '# Planning\n\nBook the **barn** early. Bring <script>alert(1)</script> warm lights.\n\n- lanterns\n- candles',
    meta_keywords: 'barn wedding photographer',
  });
  // Oldest first; ranking is shared tags, then same category, then newest.
  ids.twoTagsOther = await createArticle(app.strapi, {
    title: 'Rustic barn portraits',
    slug: 'rustic-barn-portraits',
    category: portraits,
    tags: 'Barn, rustic',
  });
  ids.oneTagSame = await createArticle(app.strapi, { title: 'Wedding rings', slug: 'wedding-rings', category: weddings, tags: 'wedding' });
  ids.oneTagOther = await createArticle(app.strapi, { title: 'Barn owls', slug: 'barn-owls', category: portraits, tags: 'barn' });
  ids.noTagSame = await createArticle(app.strapi, { title: 'Wedding timeline', slug: 'wedding-timeline', category: weddings });
  ids.noTagOther = await createArticle(app.strapi, { title: 'Headshots', slug: 'headshots', category: portraits });
  ids.draftSharing = await createArticle(app.strapi, {
    title: 'Secret barn draft',
    slug: 'secret-barn',
    category: weddings,
    tags: 'Wedding, Barn, Rustic',
    status: 'draft',
  });
});

afterAll(async () => {
  await app.stop();
});

describe('GET /api/artikel/{slug}', () => {
  it('returns the full article with every field of the contract', async () => {
    const response = await app.api().get('/api/artikel/barn-wedding').expect(200);
    const article = response.body.data;
    expect(Object.keys(article).sort()).toEqual(
      [
        'author',
        'category',
        'content',
        'content_html',
        'cover',
        'cover_image_url',
        'created_at',
        'gallery',
        'id',
        'meta_description',
        'meta_keywords',
        'meta_title',
        'publish_at',
        'published_at',
        'reading_time',
        'related',
        'slug',
        'status',
        'summary',
        'tags',
        'title',
        'updated_at',
        'views',
        'json_ld',
      ].sort(),
    );
    expect(article).toMatchObject({
      id: ids.main,
      title: 'Planning a barn wedding',
      slug: 'barn-wedding',
      category: { name: 'Weddings', slug: 'weddings' },
      tags: ['Wedding', 'Barn', 'Rustic'],
      author: 'Lichtbild Studio',
      status: 'published',
      gallery: [],
      meta_title: 'Planning a barn wedding',
      meta_keywords: 'barn wedding photographer',
    });
    expect(article.meta_description).toBe(article.summary);
    expect(article.summary).toBe('Planning. Book the barn early. Bring warm lights. lanterns. candles.');
  });

  it('renders Markdown to safe HTML', async () => {
    const { body } = await app.api().get('/api/artikel/barn-wedding').expect(200);
    expect(body.data.content_html).toContain('<h1>Planning</h1>');
    expect(body.data.content_html).toContain('<strong>barn</strong>');
    expect(body.data.content_html).toContain('<li>lanterns</li>');
    expect(body.data.content_html).not.toMatch(/<script|alert\(1\)/);
  });

  it('counts one view per read and shows the new count in the response', async () => {
    const before = await storedViews(app.strapi, ids.oneTagOther);
    const first = await app.api().get('/api/artikel/barn-owls').expect(200);
    const second = await app.api().get('/api/artikel/barn-owls').expect(200);
    expect(first.body.data.views).toBe(before + 1);
    expect(second.body.data.views).toBe(before + 2);
    expect(await storedViews(app.strapi, ids.oneTagOther)).toBe(before + 2);
  });

  it('shows the view count on list items too', async () => {
    await app.api().get('/api/artikel/headshots').expect(200);
    const list = await app.api().get('/api/artikel?limit=50').expect(200);
    const headshots = list.body.data.find((article: { slug: string }) => article.slug === 'headshots');
    expect(headshots.views).toBe(await storedViews(app.strapi, ids.noTagOther));
    expect(headshots.views).toBeGreaterThanOrEqual(1);
  });

  it('answers an unknown slug with a 404 in the error body and moves no counter', async () => {
    const totalBefore = await totalStoredViews(app.strapi);
    const response = await app.api().get('/api/artikel/no-such-article').expect(404);
    expect(response.body).toEqual({
      data: null,
      error: { status: 404, name: 'NotFoundError', message: expect.any(String), details: {} },
    });
    const totalAfter = await totalStoredViews(app.strapi);
    expect(totalAfter).toEqual(totalBefore);
  });

  it('answers the slug of a draft with a 404 and counts no view for it', async () => {
    await app.api().get('/api/artikel/secret-barn').expect(404);
    expect(await storedViews(app.strapi, ids.draftSharing)).toBe(0);
  });

  it('ranks related articles by shared tags, then same category, then newest, at most 4', async () => {
    const { body } = await app.api().get('/api/artikel/barn-wedding').expect(200);
    expect(body.data.related.map((article: { slug: string }) => article.slug)).toEqual([
      'rustic-barn-portraits',
      'wedding-rings',
      'barn-owls',
      'wedding-timeline',
    ]);
    expect(Object.keys(body.data.related[0]).sort()).toEqual(
      [
        'author',
        'category',
        'cover',
        'cover_image_url',
        'id',
        'published_at',
        'reading_time',
        'slug',
        'summary',
        'tags',
        'title',
        'updated_at',
        'views',
      ].sort(),
    );
  });

  it('fills related articles by category and then newest when no tag is shared', async () => {
    const { body } = await app.api().get('/api/artikel/wedding-timeline').expect(200);
    const related = body.data.related.map((article: { slug: string }) => article.slug);
    expect(related).toEqual(['wedding-rings', 'barn-wedding', 'headshots', 'barn-owls']);
    expect(related).not.toContain('wedding-timeline');
  });

  it('keeps the view count when an editor edits and republishes the article', async () => {
    await app.api().get('/api/artikel/wedding-rings').expect(200);
    await app.api().get('/api/artikel/wedding-rings').expect(200);
    const documents = app.strapi.documents(ARTICLE_UID);
    await documents.update({ documentId: ids.oneTagSame, data: { title: 'Wedding rings, revisited' } });
    await documents.publish({ documentId: ids.oneTagSame });
    const { body } = await app.api().get('/api/artikel/wedding-rings').expect(200);
    expect(body.data.title).toBe('Wedding rings, revisited');
    expect(body.data.views).toBe(3);
  });

  it('stops serving an article once it is unpublished, and serves it again after republishing', async () => {
    const documents = app.strapi.documents(ARTICLE_UID);
    await documents.unpublish({ documentId: ids.noTagOther });
    await app.api().get('/api/artikel/headshots').expect(404);
    await documents.publish({ documentId: ids.noTagOther });
    await app.api().get('/api/artikel/headshots').expect(200);
  });

  it('rejects query parameters on a single read', async () => {
    const response = await app.api().get('/api/artikel/barn-wedding?status=draft').expect(400);
    expect(response.body.error.details.errors[0].path).toEqual(['status']);
  });
});

describe('structured data', () => {
  it('carries a schema.org BlogPosting built from the article: headline, description, images, author, dates, keywords, URL', async () => {
    const article = (await app.api().get('/api/artikel/barn-wedding').expect(200)).body.data;
    // JSON text, ready for the page's <script type="application/ld+json">.
    expect(typeof article.json_ld).toBe('string');
    const posting = JSON.parse(article.json_ld);
    expect(posting).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'BlogPosting',
      headline: article.meta_title,
      name: article.title,
      description: article.meta_description,
      author: { '@type': expect.stringMatching(/^(Person|Organization)$/), name: article.author },
      publisher: { '@type': 'Organization', name: 'Lichtbild Studio' },
      datePublished: article.published_at,
      dateModified: article.updated_at,
    });
    expect(typeof posting.headline).toBe('string');
    expect([...posting.headline].length).toBeLessThanOrEqual(110);
    expect(posting.image.map((image: { contentUrl: string }) => image.contentUrl)).toEqual([
      ...(article.cover_image_url ? [article.cover_image_url] : []),
      ...article.gallery.map((image: { url: string }) => image.url),
    ]);
    expect(posting.inLanguage).toBe('id');
    expect(typeof posting.keywords).toBe('string');
    expect(posting.keywords.split(', ')).toEqual(article.meta_keywords ? expect.any(Array) : article.tags);
    expect(posting.url).toBe(`/api/artikel/${article.slug}`);
    expect(posting.mainEntityOfPage).toEqual({ '@type': 'WebPage', '@id': posting.url });
    for (const date of [posting.datePublished, posting.dateModified]) expect(new Date(date).toISOString()).toBe(date);
    // It survives the round trip a site makes: printed into a script tag and parsed back.
    expect(JSON.parse(JSON.stringify(posting))).toEqual(posting);
  });
});
