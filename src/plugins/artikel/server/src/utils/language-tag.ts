// RFC 5646 §4.4.1: implementations must handle tags of up to 35 characters; a longer one is a mistake.
export const LANGUAGE_TAG_LENGTH = 35;

/**
 * A BCP 47 language tag in its canonical form (`EN-gb` → `en-GB`), or null when it is not one.
 * The platform's Intl checks the tag's syntax (Unicode BCP 47 locale identifiers: a language
 * subtag, then script, region, variants and extensions); tags without a language (`x-private`) and
 * the grandfathered forms (`i-klingon`) are refused.
 */
export function canonicalLanguageTag(value: string): string | null {
  if (value.length === 0 || value.length > LANGUAGE_TAG_LENGTH) return null;
  try {
    return Intl.getCanonicalLocales(value)[0] ?? null;
  } catch {
    return null;
  }
}

/** The language's name in English (`id` → Indonesian), for texts written in English; the tag itself when the platform knows no name. */
export function englishLanguageName(tag: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}
