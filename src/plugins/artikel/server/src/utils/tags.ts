/** Tags arrive as one comma-separated string; this is the one place that reads and writes that form (their limits: field-limits.ts). */

/** Split on commas, trim, drop empties and case-insensitive duplicates, keeping the first spelling. */
export function parseTags(input: string | null | undefined): string[] {
  if (!input) return [];
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const raw of input.split(',')) {
    const tag = raw.trim();
    const key = tagKey(tag);
    if (tag === '' || seen.has(key)) continue;
    seen.add(key);
    tags.push(tag);
  }
  return tags;
}

export function formatTags(tags: string[]): string {
  return tags.join(', ');
}

/** The form a tag is compared in: whole tag, case-insensitive. */
export function tagKey(tag: string): string {
  return tag.trim().toLowerCase();
}
