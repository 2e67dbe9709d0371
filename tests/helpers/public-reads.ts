import type { TestApp } from './strapi';

/** The contract's CSV columns (format=csv, export.csv), in order: what a spreadsheet's header row shows. */
export const CSV_HEADER = [
  'id',
  'title',
  'slug',
  'summary',
  'category',
  'tags',
  'cover_image_url',
  'author',
  'views',
  'reading_time',
  'published_at',
  'updated_at',
];

/** The public page of an article the lifecycle tests configure (feeds and the sitemap link to it). */
export const SITE_ARTICLE_URL = 'https://studio.example/artikel/{slug}';

export const pageOf = (slug: string) => SITE_ARTICLE_URL.replace('{slug}', slug);

export interface PublicPresence {
  /** The status of HEAD /api/artikel/{slug} (a HEAD counts no view). */
  article: number;
  inList: boolean;
  /** `meta.pagination.total` of the whole list. */
  listTotal: number;
  /** How often the slug occurs in the list of its category. */
  listedTimes: number;
  inLatest: boolean;
  inFeed: boolean;
  inSitemap: boolean;
  /** `article_count` of the category with this slug (0 when it is not listed). */
  categoryCount: number;
}

async function sitemapLocations(app: TestApp): Promise<string[]> {
  const root = (await app.api().get('/api/artikel/sitemap.xml').expect(200)).text;
  const locations = [...root.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]);
  if (!root.includes('<sitemapindex')) return locations;
  const pages: string[] = [];
  for (const file of locations) {
    const text = (await app.api().get(new URL(file).pathname).expect(200)).text;
    pages.push(...[...text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]));
  }
  return pages;
}

/** Where a slug shows in every public read, without counting a view. */
export async function publicPresence(app: TestApp, slug: string, categorySlug = 'studio'): Promise<PublicPresence> {
  // The list, the feed and the category count are read within the article's category, so the
  // article stays within a page (50) and a feed (its 20 newest) however many articles a file wrote.
  const total = (await app.api().get('/api/artikel?limit=1').expect(200)).body.meta.pagination.total as number;
  const list = (await app.api().get(`/api/artikel?limit=50&kategori=${categorySlug}`).expect(200)).body.data as Array<{ slug: string }>;
  const latest = (await app.api().get('/api/artikel/latest').expect(200)).body.data as Array<{ slug: string }>;
  const feed = JSON.parse((await app.api().get(`/api/artikel/feed/json?kategori=${categorySlug}`).expect(200)).text) as {
    items: Array<{ url: string }>;
  };
  const categories = (await app.api().get('/api/artikel/categories').expect(200)).body.data as Array<{
    slug: string;
    article_count: number;
  }>;
  const listed = list.filter((article) => article.slug === slug).length;
  return {
    article: (await app.api().head(`/api/artikel/${slug}`)).status,
    inList: listed > 0,
    listTotal: total,
    listedTimes: listed,
    inLatest: latest.some((article) => article.slug === slug),
    inFeed: feed.items.some((item) => item.url === pageOf(slug)),
    inSitemap: (await sitemapLocations(app)).includes(pageOf(slug)),
    categoryCount: categories.find((category) => category.slug === categorySlug)?.article_count ?? 0,
  };
}

/** Fails unless the slug is in no public read at all. */
export function expectNowhere(presence: PublicPresence): void {
  expect({
    article: presence.article,
    inList: presence.inList,
    inLatest: presence.inLatest,
    inFeed: presence.inFeed,
    inSitemap: presence.inSitemap,
  }).toEqual({ article: 404, inList: false, inLatest: false, inFeed: false, inSitemap: false });
}

/** Fails unless the slug is in every public read (the list once; latest holds only the 5 newest, so it is checked apart). */
export function expectEverywhere(presence: PublicPresence): void {
  expect({
    article: presence.article,
    listedTimes: presence.listedTimes,
    inFeed: presence.inFeed,
    inSitemap: presence.inSitemap,
  }).toEqual({ article: 200, listedTimes: 1, inFeed: true, inSitemap: true });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An instant as ISO-8601 with the +07:00 offset (Jakarta), milliseconds included: a client in the
 * studio's time zone sends it so, and the service must keep the instant, not the wall-clock text.
 */
export function inJakarta(instant: Date | number): string {
  const shifted = new Date(new Date(instant).getTime() + 7 * 60 * 60 * 1000);
  return shifted.toISOString().replace('Z', '+07:00');
}
