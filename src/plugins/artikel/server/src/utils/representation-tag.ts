import { createHash } from 'node:crypto';

/**
 * Every view count of a JSON answer. A `"` inside a JSON string is always escaped (`\"`), so
 * `"views":` followed by digits is only ever a key and its number, never text.
 */
const VIEW_COUNTS = /"views":\d+/g;

/**
 * A strong entity tag for an answer, given as the text sent (JSON or a feed's XML). View counts are
 * left out of it: they change with every read, and a tag that changed with them would never let a
 * client revalidate (each revalidation is itself a view). Everything else, the article's content,
 * its related articles, a list's members, totals and links, changes the tag.
 */
export function representationTag(sentText: string): string {
  return `"${createHash('sha256').update(sentText.replace(VIEW_COUNTS, '"views":0')).digest('base64url').slice(0, 27)}"`;
}
