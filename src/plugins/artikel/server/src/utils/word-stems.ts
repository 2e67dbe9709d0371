import { stemmer as englishStem } from '@orama/stemmers/english';
import { Stemmer as IndonesianStemmer } from 'sastrawijs';

/**
 * The stems a search word and an article's word are compared by (contract, fourth round,
 * "Search": a word matches a word that begins with it or shares its stem). Indonesian by Sastrawi
 * (its dictionary of root words takes the affixes off and restores the letter meN-/peN- ate:
 * memotret, pemotretan → potret; menulis → tulis; pernikahannya → nikah), English by Snowball's
 * English stemmer (weddings, wedding → wed). A word has the stems of both that differ from
 * nothing: "potret" is its own Indonesian stem, "wedding" its own Indonesian one too.
 */

/** The longest word stemmed: no language's word is longer, and the stemmers' work stays small. */
export const STEMMED_WORD_CHARACTERS = 40;
// Stems shorter than this match too much to tell articles apart ("di", "ke" are whole words).
const SHORTEST_STEM = 3;
// Distinct words whose stems are remembered: an article's vocabulary, many times over.
const REMEMBERED_WORDS = 50_000;
// A word of letters and digits only: a stemmer's unit. Punctuation is where a word splits.
const ONE_WORD = /^[\p{L}\p{N}]+$/u;

const indonesian = new IndonesianStemmer();
const remembered = new Map<string, readonly string[]>();

/**
 * The stems of one word (lower-cased as a search folds it): none for a word that is not letters
 * and digits only, is shorter than SHORTEST_STEM or longer than STEMMED_WORD_CHARACTERS, each stem
 * of at least SHORTEST_STEM characters. The word itself is among them only where a stemmer leaves
 * it as it is.
 */
export function stemsOf(word: string): readonly string[] {
  const lower = word.toLowerCase();
  const known = remembered.get(lower);
  if (known !== undefined) return known;
  const length = [...lower].length;
  let stems: string[] = [];
  if (length >= SHORTEST_STEM && length <= STEMMED_WORD_CHARACTERS && ONE_WORD.test(lower)) {
    stems = [...new Set([indonesian.stem(lower), englishStem(lower)])].filter((stem) => [...stem].length >= SHORTEST_STEM);
  }
  if (remembered.size >= REMEMBERED_WORDS) remembered.clear();
  remembered.set(lower, stems);
  return stems;
}

/** Whether two words share a stem. */
export function shareStem(first: string, second: string): boolean {
  const stems = stemsOf(second);
  return stemsOf(first).some((stem) => stems.includes(stem));
}

/**
 * The part of a stem that every word having it holds as it is: the stem without its first letter
 * (meN-/peN- replace it: memotret → potret) and its last two (Snowball's English stemmer rewrites
 * at most those: hoping → hope, happily → happi). Empty for stems under four letters, which any
 * word may then have. Lets a search tell, by a substring test, which of a text's words can share
 * a stem before stemming them (see read-freshness, highlight); a test holds it to every stem.
 */
export function stemCore(stem: string): string {
  const characters = [...stem];
  return characters.slice(1, -2).join('');
}

/** The cores of a search word's stems (see stemCore): a text without any of them has no word sharing its stem. */
export function stemCoresOf(word: string): string[] {
  return stemsOf(word).map(stemCore);
}
