/** The placeholders a copyright notice may hold (ARTIKEL_COPYRIGHT_NOTICE). */
export const NOTICE_PLACEHOLDERS = ['year', 'studio'] as const;

export const DEFAULT_COPYRIGHT_NOTICE = '© {year} {studio}';

// Braces around a word; linear (one character class, no nesting).
const PLACEHOLDER = /\{(\w*)\}/g;

/** The placeholders a notice names that are not NOTICE_PLACEHOLDERS, each once, in their order. */
export function unknownNoticePlaceholders(template: string): string[] {
  const known: readonly string[] = NOTICE_PLACEHOLDERS;
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((match) => match[1]).filter((name) => !known.includes(name)))];
}

/** The notice with {year} and {studio} filled in; each placeholder's value is inserted as it is (never read as a pattern). */
export function copyrightNotice(template: string, values: { year: number; studio: string }): string {
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    name === 'year' ? String(values.year) : name === 'studio' ? values.studio : whole,
  );
}
