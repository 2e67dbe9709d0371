import { SEARCH_MIN_WORD_LENGTH } from '../constants';

// FTS5 query strings are C strings to its parser: a control character could end or break one.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * Which words of q the trigram index can answer and which need a LIKE scan: words shorter than a
 * trigram, words with control characters, and every word when there is no index (PostgreSQL).
 */
export function splitSearchWords(words: string[], hasIndex: boolean): { indexed: string[]; scanned: string[] } {
  const indexed: string[] = [];
  const scanned: string[] = [];
  for (const word of words) {
    const indexable = hasIndex && [...word].length >= SEARCH_MIN_WORD_LENGTH && !CONTROL_CHARACTER.test(word);
    (indexable ? indexed : scanned).push(word);
  }
  return { indexed, scanned };
}

/** An FTS5 query that every word must match, each as a literal string (trigram: a substring). */
export function ftsAllOf(words: string[]): string {
  return words.map((word) => `"${word.replace(/"/g, '""')}"`).join(' AND ');
}
