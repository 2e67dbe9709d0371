/**
 * Where the public site shows an article: SITE_ARTICLE_URL with {slug} filled in; without a site,
 * the article's address in this API (on PUBLIC_URL, else the address the request came to).
 */
export function articlePageUrl(slug: string, site: { articleUrlPattern: string; apiBase: string }): string {
  if (site.articleUrlPattern !== '') return site.articleUrlPattern.replaceAll('{slug}', encodeURIComponent(slug));
  const path = `/api/artikel/${encodeURIComponent(slug)}`;
  // Without PUBLIC_URL a cached article knows no address of its own: the path alone.
  return site.apiBase === '' ? path : new URL(path, site.apiBase).toString();
}

/** The public site's home: the origin of SITE_ARTICLE_URL, else the API's own base. */
export function siteHomeUrl(site: { articleUrlPattern: string; apiBase: string }): string {
  if (site.articleUrlPattern === '') return new URL('/', site.apiBase).toString();
  return `${new URL(site.articleUrlPattern.replace(/\{\w+\}/g, 'x')).origin}/`;
}
