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
 * The words an article is found by where the plugin keeps them itself (PostgreSQL): title, content
 * and tags lower-cased with Unicode's case mapping, split at white space, each once, sorted. A query
 * word never holds white space (q is split at it), so it is a substring of the article's text exactly
 * when it is a substring of one of these words: looking it up among them gives the same answer as
 * LIKE over the whole text, without reading that text.
 */
export function searchTerms(article: { title: string | null; content: string | null; tags: string | null }): string[] {
  const terms = new Set<string>();
  for (const text of [article.title, article.content, article.tags]) {
    for (const term of (text ?? '').toLowerCase().split(/\s+/)) if (term !== '') terms.add(term);
  }
  return [...terms].sort();
}

// Stands for a character outside ASCII in a searchable text: how a database folds such a character's case is its own.
const ANY_CHARACTER = '\u0000';

/**
 * An article's title, content and tags as a search may find them (see mayFind): ASCII lower-cased,
 * every other character replaced by one that stands for any character.
 */
export function searchableText(article: { title: string | null; content: string | null; tags: string | null }): string {
  return [article.title, article.content, article.tags].map((text) => (text ?? '').replace(/[^\x00-\x7f]/gu, ANY_CHARACTER).toLowerCase()).join('\n');
}

const escapedInClass = (character: string): string => character.replace(/[\\\]^-]/g, '\\$&');

/**
 * Whether a search for these words can find an article of this searchable text: each word occurs
 * in it, in any ASCII case. Never false where a database finds it: a word holding anything but
 * printable ASCII counts as found, and a character of the text outside ASCII matches any.
 */
export function mayFind(words: string[], text: string): boolean {
  return words.every((word) => {
    if (!/^[\x21-\x7e]+$/.test(word)) return true;
    const lower = word.toLowerCase();
    if (!text.includes(ANY_CHARACTER)) return text.includes(lower);
    return new RegExp([...lower].map((character) => `[${escapedInClass(character)}${ANY_CHARACTER}]`).join('')).test(text);
  });
}

// How many characters outside ASCII a scanned word is spelled both ways for: 2^6 patterns at most.
const MAX_CASED_CHARACTERS = 6;

/**
 * A word as LIKE patterns that together find it in any case, for a scan: LIKE folds the case of
 * ASCII letters only, so the word is lower-cased and each letter outside ASCII whose upper case is
 * one other character is spelled both ways (up to MAX_CASED_CHARACTERS of them; any further ones in
 * lower case only). "über" gives "über" and "Über".
 */
export function caseSpellings(word: string): string[] {
  let spellings = [''];
  let cased = 0;
  for (const character of word.toLowerCase()) {
    const upper = character.toUpperCase();
    const bothWays = character > '\x7f' && upper !== character && [...upper].length === 1 && cased < MAX_CASED_CHARACTERS;
    if (bothWays) cased += 1;
    spellings = spellings.flatMap((start) => (bothWays ? [start + character, start + upper] : [start + character]));
  }
  return spellings;
}
