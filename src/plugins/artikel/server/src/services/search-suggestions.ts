import type { Core } from '@strapi/strapi';
import { closestSpellings } from '../domain/spelling-suggestions';
import { type ArticleFilters, publishedArticles } from '../repositories/articles';
import { foldCase } from '../utils/search-words';

// Candidate words asked of the index per misspelt word, and how many of the closest are tried.
const CANDIDATES = 30;
const TRIED = 5;

/**
 * "Did you mean": for a search that found nothing, the same search with each word that finds
 * nothing by itself replaced by the closest word the index holds that does (see
 * closestSpellings), when the whole search then finds something; else null. A word that finds
 * articles is kept as it was typed. At most 10 words, each one count and up to TRIED more: bounded.
 */
const searchSuggestions = ({ strapi }: { strapi: Core.Strapi }) => {
  const articles = publishedArticles(strapi);
  // Counted up to one match: a count past 0 is no exact count of none.
  const finds = async (filters: ArticleFilters, words: string[]): Promise<boolean> =>
    !(await articles.count({ ...filters, words }, 0)).exact;

  return {
    async suggest(filters: ArticleFilters): Promise<string | null> {
      const suggested = [...filters.words];
      let changed = false;
      for (const [index, word] of filters.words.entries()) {
        if (await finds(filters, [word])) continue;
        const candidates = closestSpellings(foldCase(word), await articles.similarWords(word, CANDIDATES)).slice(0, TRIED);
        let found: string | null = null;
        for (const candidate of candidates) {
          if (await finds(filters, [candidate])) {
            found = candidate;
            break;
          }
        }
        if (found === null) return null;
        suggested[index] = found;
        changed = true;
      }
      // Every word finds articles, only not together: no spelling to correct.
      if (!changed || !(await finds(filters, suggested))) return null;
      return suggested.join(' ');
    },
  };
};

export default searchSuggestions;
