import type { TestApp } from './strapi';

/** A page of the public list as a front end reads it (JSON of GET /api/artikel). */
export interface ListBody {
  data: Array<{ slug: string }>;
  meta: { pagination: { page: number; limit: number; total: number; page_count: number }; suggestion?: string | null };
  links: { next: string | null };
}

/** GET /api/artikel?`query` with Node's own fetch(), as a browser or a front end sends it; the answer must be a 200. */
export async function listPage(app: TestApp, query: string): Promise<ListBody> {
  const response = await fetch(`${await app.baseUrl()}/api/artikel?${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as ListBody;
}

/** The page's articles by slug, in the order listed. */
export const slugsOf = (body: ListBody): string[] => body.data.map((article) => article.slug);
