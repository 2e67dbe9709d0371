import { distance } from 'fastest-levenshtein';

/**
 * How far a suggestion may be from what was typed: one edit (a letter missed, added, changed) for
 * every three letters, at least one, at most three; further off, a "did you mean" guesses.
 */
export const maxEditsFor = (word: string): number => Math.min(3, Math.max(1, Math.floor([...word].length / 3)));

/**
 * The candidates close enough to the typed word, closest first (fewest edits; among equals, the
 * order the index gave, most alike first). The word is compared folded, as a search compares it.
 */
export function closestSpellings(folded: string, candidates: string[]): string[] {
  const allowed = maxEditsFor(folded);
  return candidates
    .map((candidate, order) => ({ candidate, order, edits: distance(folded, candidate) }))
    .filter(({ candidate, edits }) => edits > 0 && edits <= allowed && candidate.length >= 2)
    .sort((first, second) => first.edits - second.edits || first.order - second.order)
    .map(({ candidate }) => candidate);
}
