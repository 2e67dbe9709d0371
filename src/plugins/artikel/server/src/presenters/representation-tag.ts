import { createHash } from 'node:crypto';

/**
 * Every view count of a JSON text. A `"` inside a JSON string is always escaped (`\"`), so
 * `"views":` followed by digits is only ever a key and its number, never text.
 */
const VIEW_COUNTS = /"views":\d+/g;

/**
 * A strong entity tag for an answer, given as the text sent: `json`, the service's JSON records, or
 * `text`, a feed or sitemap as written. View counts are left out of a JSON answer's tag: they change
 * with every read, and a tag that changed with them would never let a client revalidate (each
 * revalidation is itself a view). Everything else, the article's content, its related articles, a
 * list's members, totals and links, changes the tag. A text holds no view counts; it is its own
 * representation (and its words are not JSON-escaped, so the pattern could match them).
 */
export function representationTag(sentText: string, format: 'json' | 'text'): string {
  const withoutViews = format === 'json' ? sentText.replace(VIEW_COUNTS, '"views":0') : sentText;
  return `"${createHash('sha256').update(withoutViews).digest('base64url').slice(0, 27)}"`;
}

/**
 * The tag of an article's answer (its public GET, a write's answer): its version, which only writes
 * of the article change (see repositories/article-versions.ts), before the representation's own tag.
 * If-Match compares the version alone, so neither views nor related articles make it stale.
 */
export function articleTag(version: string, sentText: string): string {
  return `"${version}.${representationTag(sentText, 'json').slice(1)}`;
}
