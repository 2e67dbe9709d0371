/**
 * An If-Match header as RFC 9110 writes it: `*`, or a comma-separated list of entity tags, each
 * `"opaque"` or weak `W/"opaque"`. Read in one pass over the text (linear in its length).
 */
export type IfMatch = { any: true } | { any: false; strongTags: string[] };

const isTagCharacter = (code: number): boolean => code === 0x21 || (code >= 0x23 && code <= 0x7e) || code >= 0x80;

/** The parsed header, or null when it is not a valid If-Match. */
export function parseIfMatch(header: string): IfMatch | null {
  const text = header.trim();
  if (text === '*') return { any: true };
  const strongTags: string[] = [];
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
    if (!weak) strongTags.push(text.slice(start, index));
    index += 1;
    skipSpace();
    if (index === text.length) return { any: false, strongTags };
    if (text[index] !== ',') return null;
    index += 1;
  }
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
