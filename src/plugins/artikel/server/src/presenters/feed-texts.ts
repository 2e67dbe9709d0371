type Words = (title: string) => string;

// The languages the admin speaks (ADMIN_DEFAULT_LOCALE); a feed in another language gets English words.
const NEWEST_ARTICLES = new Map<string, Words>([
  ['id', (title) => `Artikel terbaru dari ${title}`],
  ['de', (title) => `Die neuesten Artikel von ${title}`],
  ['en', (title) => `The newest articles of ${title}`],
]);

/**
 * A feed's description in the language it declares (by the tag's primary language, so `en-GB`
 * reads English), so a reader does not show English words in a feed marked Indonesian.
 */
export function feedDescription(title: string, language: string): string {
  const words = NEWEST_ARTICLES.get(language.split('-')[0].toLowerCase()) ?? NEWEST_ARTICLES.get('en');
  return words === undefined ? title : words(title);
}
