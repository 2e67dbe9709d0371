import type { Core } from '@strapi/strapi';

/**
 * Whether something holds of a Strapi instance, true until marked otherwise: per instance, since
 * the tests run several, one after the other, in one process.
 */
function flagPerInstance(): { holds: (strapi: Core.Strapi) => boolean; mark: (strapi: Core.Strapi, holds: boolean) => void } {
  const notHolding = new WeakSet<Core.Strapi>();
  return {
    holds: (strapi) => !notHolding.has(strapi),
    mark: (strapi, holds) => {
      if (holds) notHolding.delete(strapi);
      else notHolding.add(strapi);
    },
  };
}

const index = flagPerInstance();
const vocabulary = flagPerInstance();
const trigrams = flagPerInstance();
const counts = flagPerInstance();

/**
 * Whether the plugin's index tables (tags and search, built together per article) hold every
 * published article. While a build started on an incomplete index runs, the reads that would use
 * them scan the articles instead: slower, same answers.
 */
export const indexComplete = index.holds;
export const markIndexComplete = index.mark;

/**
 * Whether the search vocabulary (see repositories/search/sqlite.ts) holds the words of every entry.
 * An index from before it has its entries' words added in the background; until then searches
 * find their matches through the trigram index: slower, same answers.
 */
export const vocabularyComplete = vocabulary.holds;
export const markVocabularyComplete = vocabulary.mark;

/**
 * Whether SQLite's trigram index (see repositories/search/sqlite.ts) holds every entry. A build
 * adds its entries to the word index first and to the trigram index after, in the background;
 * until then the searches only the trigram index answers read the articles: slower, same answers.
 */
export const trigramsComplete = trigrams.holds;
export const markTrigramsComplete = trigrams.mark;

/**
 * Whether the kept counts of published articles (see repositories/article-counts.ts) agree with
 * the rows. Until a start or a build has counted them (a new table, an imported file), the reads
 * count the published rows themselves.
 */
export function countsComplete(strapi: Core.Strapi): boolean {
  return counts.holds(strapi) && indexComplete(strapi);
}

export const markCountsComplete = counts.mark;
