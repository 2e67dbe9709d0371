/**
 * An If-Match or If-None-Match header as RFC 9110 writes it: `*`, or a comma-separated list of
 * entity tags, each `"opaque"` or weak `W/"opaque"`. Read in one pass over the text (linear in its
 * length).
 */
type EntityTags = { any: true } | { any: false; tags: Array<{ opaque: string; weak: boolean }> };

export type IfMatch = { any: true } | { any: false; strongTags: string[] };

const isTagCharacter = (code: number): boolean => code === 0x21 || (code >= 0x23 && code <= 0x7e) || code >= 0x80;

/** The parsed header, or null when it is not a valid list of entity tags. */
function parseEntityTags(header: string): EntityTags | null {
  const text = header.trim();
  if (text === '*') return { any: true };
  const tags: Array<{ opaque: string; weak: boolean }> = [];
  let index = 0;
  const skipSpace = () => {
    while (index < text.length && (text[index] === ' ' || text[index] === '\t')) index += 1;
  };
  for (;;) {
    skipSpace();
    let weak = false;
    if (text.startsWith('W/', index)) {
      weak = true;
      index += 2;
    }
    if (text[index] !== '"') return null;
    const start = index + 1;
    index = start;
    while (index < text.length && text[index] !== '"') {
      if (!isTagCharacter(text.charCodeAt(index))) return null;
      index += 1;
    }
    if (index >= text.length) return null;
    tags.push({ opaque: text.slice(start, index), weak });
    index += 1;
    skipSpace();
    if (index === text.length) return { any: false, tags };
    if (text[index] !== ',') return null;
    index += 1;
  }
}

/** The parsed If-Match, or null when it is not a valid one. */
export function parseIfMatch(header: string): IfMatch | null {
  const parsed = parseEntityTags(header);
  if (parsed === null || parsed.any) return parsed;
  return { any: false, strongTags: parsed.tags.filter((tag) => !tag.weak).map((tag) => tag.opaque) };
}

/**
 * Whether an If-None-Match holds the answer's ETag: `*`, or any of its tags by weak comparison (RFC
 * 9110 asks it of GET and HEAD: `W/"x"` matches `"x"`). A malformed header holds nothing, so the
 * answer is sent whole. What the request's Cache-Control says does not matter here: it is addressed
 * to caches, not to the origin (fetch() sends `no-cache` with every conditional request).
 */
export function ifNoneMatchHolds(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const parsed = parseEntityTags(Array.isArray(header) ? header.join(',') : header);
  if (parsed === null) return false;
  if (parsed.any) return true;
  const current = parseEntityTags(etag);
  if (current === null || current.any || current.tags.length !== 1) return false;
  return parsed.tags.some((tag) => tag.opaque === current.tags[0].opaque);
}

/** The version part of one of the service's article tags ("<version>.<representation>"), or null. */
export function versionOfTag(opaque: string): string | null {
  const dot = opaque.indexOf('.');
  return dot > 0 ? opaque.slice(0, dot) : null;
}

/**
 * Whether an If-Match admits an article at this version. Strong comparison, as RFC 9110 asks of
 * If-Match: a weak tag never matches.
 */
export function ifMatchAdmits(condition: IfMatch, version: string): boolean {
  return condition.any || condition.strongTags.some((tag) => versionOfTag(tag) === version);
}
