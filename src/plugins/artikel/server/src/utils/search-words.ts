import { SEARCH_MIN_WORD_LENGTH } from '../constants';

// FTS5 query strings are C strings to its parser: a control character could end or break one.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * Which words of q SQLite's trigram index can answer and which need a LIKE scan: words shorter
 * than a trigram, and words with control characters.
 */
export function splitSearchWords(words: string[]): { indexed: string[]; scanned: string[] } {
  const indexed: string[] = [];
  const scanned: string[] = [];
  for (const word of words) {
    const indexable = [...word].length >= SEARCH_MIN_WORD_LENGTH && !CONTROL_CHARACTER.test(word);
    (indexable ? indexed : scanned).push(word);
  }
  return { indexed, scanned };
}

/** An FTS5 query that every word must match, each as a literal string (trigram: a substring). */
export function ftsAllOf(words: string[]): string {
  return words.map((word) => `"${word.replace(/"/g, '""')}"`).join(' AND ');
}

/**
 * The text a word is looked up in where the plugin keeps it itself (PostgreSQL): title, content and
 * tags lower-cased with Unicode's case mapping, one per line, so that no word (which never holds
 * white space) can match across two of them.
 */
export function searchText(article: { title: string | null; content: string | null; tags: string | null }): string {
  return [article.title, article.content, article.tags].map((text) => (text ?? '').toLowerCase()).join('\n');
}
