import { createHash } from 'node:crypto';

/**
 * A strong entity tag for a JSON answer. View counts are left out of it: they change with every
 * read, and a tag that changed with them would never let a client revalidate (each revalidation is
 * itself a view). Everything else, the article's content, its related articles, a list's members,
 * totals and links, changes the tag.
 */
export function representationTag(body: unknown): string {
  // A text (a feed) is its own representation; it holds no view counts.
  const withoutViews = typeof body === 'string' ? body : JSON.stringify(body, (key, value: unknown) => (key === 'views' ? undefined : value));
  return `"${createHash('sha256').update(withoutViews ?? '').digest('base64url').slice(0, 27)}"`;
}
