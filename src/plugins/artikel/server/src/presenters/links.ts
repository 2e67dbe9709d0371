import type { PageLink } from '../domain/list-cursor';

/** The URLs of the neighbouring pages of a list, null where there is none. */
export interface PagingLinks {
  next: string | null;
  prev: string | null;
}

/** The URL with each query parameter once: one sent more than once had one value (see singleValuedQuery), and is linked once. */
export function withSingleParameters(requestUrl: URL): URL {
  const url = new URL(requestUrl);
  for (const name of new Set(url.searchParams.keys())) url.searchParams.set(name, url.searchParams.get(name) ?? '');
  return url;
}

/**
 * The next and previous pages of a list answer, as absolute URLs that keep every other query
 * parameter: past a cursor (and no page), at a page number (and no cursor), or the first page
 * (neither).
 */
export function pagingLinks(listUrl: URL, paging: { next: PageLink | null; prev: PageLink | null }): PagingLinks {
  const linkTo = (target: PageLink | null): string | null => {
    if (target === null) return null;
    const url = withSingleParameters(listUrl);
    url.searchParams.delete('page');
    url.searchParams.delete('cursor');
    if (target !== 'first') {
      if ('cursor' in target) url.searchParams.set('cursor', target.cursor);
      else url.searchParams.set('page', String(target.page));
    }
    return url.toString();
  };
  return { next: linkTo(paging.next), prev: linkTo(paging.prev) };
}

/** The same links as an RFC 8288 Link header value, or null when there are none. */
export function linkHeader(links: PagingLinks): string | null {
  const parts = (['next', 'prev'] as const).flatMap((relation) =>
    links[relation] === null ? [] : [`<${links[relation]}>; rel="${relation}"`],
  );
  return parts.length === 0 ? null : parts.join(', ');
}

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
