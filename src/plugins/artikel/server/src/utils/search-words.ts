import { stemCores, stemsOf } from './word-stems';

/** The trigram tokenizer indexes runs of three characters: shorter words need a LIKE scan. */
export const SEARCH_MIN_WORD_LENGTH = 3;

/**
 * What one search may ask: distinct words, characters per word, characters in all (after control
 * characters are dropped). Each word is one condition on the index (or one scan of the articles'
 * text), so the words bound a search's cost. A word of 100 characters holds a pasted SHA-256 or
 * a long URL's path; longer words in articles are found by any part of up to 100 characters.
 */
export const SEARCH_LIMITS = { words: 10, wordCharacters: 100, characters: 200 } as const;

// Control characters but the white space that separates words: they cannot be typed, no article's
// text is found by them, and FTS5 reads its query as a C string.
const DROPPED_CHARACTERS = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f]/g;

/** q with its control characters dropped and its ends trimmed: the text a search looks for. */
export function searchText(q: string): string {
  return q.replace(DROPPED_CHARACTERS, '').trim();
}

/** The words of a search text, each once (case-insensitively): a word repeated adds nothing to "every word must occur". */
export function searchWordsOf(text: string): string[] {
  const words = new Map<string, string>();
  for (const word of text.split(/\s+/)) {
    if (word !== '' && !words.has(foldCase(word))) words.set(foldCase(word), word);
  }
  return [...words.values()];
}

/** Whether a search text keeps to SEARCH_LIMITS. */
export function withinSearchLimits(text: string): boolean {
  const words = searchWordsOf(text);
  return (
    [...text].length <= SEARCH_LIMITS.characters &&
    words.length <= SEARCH_LIMITS.words &&
    words.every((word) => [...word].length <= SEARCH_LIMITS.wordCharacters)
  );
}

/** How a search folds case, everywhere it compares: Unicode's lower case, as JavaScript maps it. */
export function foldCase(text: string): string {
  return text.toLowerCase();
}

/** The SQL function, on SQLite's long-read connection, that folds a column's text as foldCase does. */
export const FOLD_SQL_FUNCTION = 'artikel_fold';

/** FOLD_SQL_FUNCTION's body: a text folded (foldCase), any other value (NULL, a number) as it is. */
export const foldSqlValue = (value: unknown): unknown => (typeof value === 'string' ? foldCase(value) : value);

const ASCII_ONLY = /^[\u0000-\u007f]*$/;

/**
 * Whether SQLite's LIKE, which folds ASCII letters only, finds a folded word (see foldCase) in
 * exactly the texts whose fold holds it. It does for an ASCII word without a "k" that does not end
 * in "i": only two characters outside ASCII fold to ASCII, the Kelvin sign (U+212A) to "k" and the
 * dotted capital I (U+0130) to "i" with a combining dot after it, which no ASCII word continues
 * past. Every other character of such a match is ASCII in the text as well.
 */
export function likeFindsAsFolded(folded: string): boolean {
  return ASCII_ONLY.test(folded) && !folded.includes('k') && !folded.endsWith('i');
}

/** A LIKE pattern (with ESCAPE '\') for the texts holding `text`: its %, _ and \ are ordinary characters. */
export function likeHolding(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

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

const ASCII_WORD = /^[A-Za-z0-9]+$/;

/**
 * An FTS5 query for an index tokenized into words (unicode61) that an article matches where each
 * word begins one of its words ("workshop" finds "workshops") or is one of that word's `forms`
 * (the index's words sharing its stem, see word-stems); null unless every word is ASCII
 * letters and digits. Only such a word is sure to be looked up as one word, the way the trigram
 * index folds it: where a word holds punctuation, the word index would look up a phrase of its
 * pieces, which text without that punctuation matches too. `onlyWordsBegun`: for each word, the
 * one word of the index it begins, where the index holds exactly one (else null).
 */
export function ftsWordStartsOf(words: string[], forms: string[][] = [], onlyWordsBegun: Array<string | null> = []): string | null {
  if (!scoredByWordStarts(words)) return null;
  return words
    .map((word, index) => {
      // A word that begins one word only is that word: the same matches and the same bm25 from its
      // own list, where a prefix query merges the lists of every term it begins (14 instead of 24 ms
      // for a word in 95,000 of 100,000 articles).
      const only = onlyWordsBegun[index] ?? null;
      const begins = only === null ? `"${word}"*` : ftsAnyOf([only]);
      return (forms[index] ?? []).length === 0 ? begins : `(${begins} OR ${ftsAnyOf(forms[index])})`;
    })
    .join(' AND ');
}

/**
 * Whether a query's words are ranked by where they begin words (see ftsWordStartsOf): every word
 * ASCII letters and digits, of at least SEARCH_MIN_WORD_LENGTH characters (a shorter one begins
 * too many words to tell articles apart; it is counted in the text instead, on both stores).
 */
export function scoredByWordStarts(words: string[]): boolean {
  return words.length > 0 && words.every((word) => ASCII_WORD.test(word) && word.length >= SEARCH_MIN_WORD_LENGTH);
}

/** An FTS5 query that any of these strings matches, each as a literal string (trigram: a substring). */
export function ftsAnyOf(pieces: string[]): string {
  return pieces.map((piece) => `"${piece.replace(/"/g, '""')}"`).join(' OR ');
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
  return [article.title, article.content, article.tags]
    .map((text) => (text ?? '').replace(/[^\x00-\x7f]/gu, ANY_CHARACTER).toLowerCase())
    .join('\n');
}

const escapedInClass = (character: string): string => character.replace(/[\\\]^-]/g, '\\$&');

// Occurrences of a stem's core mayFind looks at before it takes the text as holding a form.
const MOST_CORE_OCCURRENCES = 1_000;
const isWordCharacter = (character: string | undefined): boolean => character !== undefined && /[a-z0-9\u0000]/.test(character);

/**
 * Whether a search for these words can find an article of this searchable text: each word occurs
 * in it, in any ASCII case, or one of the text's words shares its stem (see word-stems; only the
 * words around an occurrence of a stem's core are stemmed). Never false where a database finds it:
 * a word holding anything but printable ASCII counts as found, a character of the text outside
 * ASCII matches any (a text's word holding one may be any form).
 */
export function mayFind(words: string[], text: string): boolean {
  const pattern = (piece: string): RegExp =>
    text.includes(ANY_CHARACTER)
      ? new RegExp([...piece].map((character) => `[${escapedInClass(character)}${ANY_CHARACTER}]`).join(''), 'g')
      : new RegExp(piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g');
  // Each word of the text around an occurrence of one of the stem's cores (see stemCores), stemmed.
  const holdsForm = (stem: string): boolean =>
    stemCores(stem).some((core) => {
      const found = pattern(core);
      for (let seen = 0, match = found.exec(text); match !== null; match = found.exec(text), seen += 1) {
        if (seen >= MOST_CORE_OCCURRENCES) return true;
        let [start, end] = [match.index, match.index + match[0].length];
        while (isWordCharacter(text[start - 1])) start -= 1;
        while (isWordCharacter(text[end])) end += 1;
        const word = text.slice(start, end);
        if (word.includes(ANY_CHARACTER) || stemsOf(word).includes(stem)) return true;
        found.lastIndex = end;
      }
      return false;
    });
  return words.every((word) => {
    if (!/^[\x21-\x7e]+$/.test(word)) return true;
    const lower = word.toLowerCase();
    return pattern(lower).test(text) || stemsOf(lower).some(holdsForm);
  });
}
