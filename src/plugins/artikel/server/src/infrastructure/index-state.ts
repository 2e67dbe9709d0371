import type { Core } from '@strapi/strapi';

// Per Strapi instance: the tests run several, one after the other, in one process.
const incomplete = new WeakSet<Core.Strapi>();

/**
 * Whether the plugin's index tables (tags and search, built together per article) hold every
 * published article. While a build started on an incomplete index runs, the reads that would use
 * them scan the articles instead: slower, same answers.
 */
export function indexComplete(strapi: Core.Strapi): boolean {
  return !incomplete.has(strapi);
}

export function markIndexComplete(strapi: Core.Strapi, complete: boolean): void {
  if (complete) incomplete.delete(strapi);
  else incomplete.add(strapi);
}

// Per Strapi instance, like the index: whether SQLite's search vocabulary holds every entry's words.
const vocabularyUnfilled = new WeakSet<Core.Strapi>();

/**
 * Whether the search vocabulary (see repositories/search/sqlite.ts) holds the words of every entry.
 * An index from before it has its entries' words added in the background; until then searches
 * find their matches through the trigram index: slower, same answers.
 */
export function vocabularyComplete(strapi: Core.Strapi): boolean {
  return !vocabularyUnfilled.has(strapi);
}

export function markVocabularyComplete(strapi: Core.Strapi, complete: boolean): void {
  if (complete) vocabularyUnfilled.delete(strapi);
  else vocabularyUnfilled.add(strapi);
}

// Per Strapi instance, like the index: whether the kept counts (see repositories/article-counts.ts) can be read.
const countsUnknown = new WeakSet<Core.Strapi>();

/**
 * Whether the kept counts of published articles agree with the rows. Until a start or a build has
 * counted them (a new table, an imported file), the reads count the published rows themselves.
 */
export function countsComplete(strapi: Core.Strapi): boolean {
  return !countsUnknown.has(strapi) && indexComplete(strapi);
}

export function markCountsComplete(strapi: Core.Strapi, complete: boolean): void {
  if (complete) countsUnknown.delete(strapi);
  else countsUnknown.add(strapi);
}
