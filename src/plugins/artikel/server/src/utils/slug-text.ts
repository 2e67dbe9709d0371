import crypto from 'node:crypto';
import slugify from 'slugify';
import { FIELD_LIMITS } from './field-limits';

// Room for a "-NNN" suffix when the generated slug is already taken.
const GENERATED_SLUG_LENGTH = 180;

/** Paths under /api/artikel that are routes, not articles. */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set(['categories', 'latest', 'feed', 'sitemap']);

export function normalizeSlug(text: string, maxLength: number = FIELD_LIMITS.slug): string {
  const slug = slugify(text, { lower: true, strict: true, trim: true }).replace(/-+/g, '-').replace(/^-|-$/g, '');
  if (slug.length <= maxLength) return slug;
  const cut = slug.slice(0, maxLength);
  const lastDash = cut.lastIndexOf('-');
  return lastDash > 0 ? cut.slice(0, lastDash) : cut;
}

/** A slug for a title; a title with nothing sluggable (emoji only, say) gets a stable hash-based one. */
export function slugFromTitle(title: string): string {
  const slug = normalizeSlug(title, GENERATED_SLUG_LENGTH);
  if (slug !== '') return slug;
  return `artikel-${crypto.createHash('sha256').update(title).digest('hex').slice(0, 8)}`;
}

/** Why a slug asked for explicitly cannot be used as it is, or null when it can (taken or not). */
export function slugProblem(requested: string, reserved: ReadonlySet<string>): string | null {
  const slug = normalizeSlug(requested);
  if (slug === '') return 'slug must contain at least one letter or digit';
  if (reserved.has(slug)) return `slug "${slug}" is reserved for a route`;
  return null;
}

export function withSuffix(base: string, attempt: number): string {
  return attempt <= 1 ? base : `${base}-${attempt}`;
}
