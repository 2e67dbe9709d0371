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
const STEMMED_WORD_CHARACTERS = 40;
// A word of more UTF-16 units than this has more than STEMMED_WORD_CHARACTERS characters (two
// units at most each): it has no stems, found without folding or counting it, and is not remembered.
const LONGEST_STEMMED_UNITS = 2 * STEMMED_WORD_CHARACTERS;
const NO_STEMS: readonly string[] = Object.freeze([]);
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
  // A text's longest run of letters (a pasted hash, a megabyte without a space) is neither folded nor kept as a key.
  if (word.length > LONGEST_STEMMED_UNITS) return NO_STEMS;
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
 * Two parts of a stem, one of which every word having it holds as it is: the stem without its first
 * letter (Sastrawi's stems: meN-/peN- replace that letter, memotret → potret, and affixes only
 * add letters around it) and without its last two (Snowball's English stems: it rewrites at most
 * those, hoping → hope, happily → happi). Lets a search tell, by substring tests, which of a
 * text's words can share a stem before stemming them (see read-freshness, highlight); a test
 * holds them to every form of Sastrawi's dictionary.
 */
export function stemCores(stem: string): [indonesian: string, english: string] {
  const characters = [...stem];
  return [characters.slice(1).join(''), characters.slice(0, -2).join('')];
}
