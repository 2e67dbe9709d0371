import type { Core } from '@strapi/strapi';
import { isSqlite } from '../../infrastructure/database-dialect';
import { oncePerStrapi } from '../../infrastructure/once-per-strapi';
import { database, readDatabase, type Knex, type RawSql } from '../../infrastructure/transactions';
import { postgresSearch } from './postgres';
import { coversThePublishedRows, lastArticleId } from './shared';
import { sqliteSearch } from './sqlite';

type QueryBuilder = ReturnType<Knex>;

export interface SearchIndex {
  /** Creates what the index needs, idempotently (every boot); `empty`: drops what it holds first (its tag rows are gone). */
  ensure(options: { empty: boolean }): Promise<void>;
  /** Makes a document's entry follow its published row, in the given transaction. */
  sync(trx: Knex, documentId: string): Promise<void>;
  /**
   * Whether every published article has an entry built from its current row, judged by how many
   * there are and the sum of their row ids: cheap (no article's text is read), and any import or
   * write behind the Document Service's back that adds, removes or replaces published rows changes
   * them. A row edited in place keeps its id; outside-writes repairs those while the service runs.
   */
  isComplete(): Promise<boolean>;
  /**
   * Adds, a few words per transaction, the words of the entries made without them (SQLite: an
   * index from before the vocabulary, a start's build; nothing on PostgreSQL), until none is left
   * (true) or `stopped` holds (false). Searches answer the same meanwhile (see index-state).
   */
  fillVocabulary(stopped: () => boolean): Promise<boolean>;
  /**
   * Adds, a few entries per transaction, what a build left for later (SQLite: its entries' trigram
   * index entries; nothing on PostgreSQL), until none is left (true) or `stopped` holds (false).
   * Searches answer the same meanwhile (see index-state).
   */
  fillTrigrams(stopped: () => boolean): Promise<boolean>;
  /**
   * Merges what the index holds into fewer parts, a few pages per transaction, until there is
   * nothing left to merge (true) or `stopped` holds (false): SQLite's word index, whose lookups
   * seek in every part; nothing on PostgreSQL, whose GIN indexes take entries as they come.
   */
  compact(stopped: () => boolean): Promise<boolean>;
  /** Removes the entries not built from a current published row; returns their documents. */
  removeStale(): Promise<string[]>;
  /** The highest article row id: a build walks the rows up to it (later ones are written, and indexed, by the Document Service). */
  lastArticleId(): Promise<number>;
  /**
   * In the current transaction: indexes the published rows without an entry among article ids
   * `afterId` + 1 to `throughId`; returns their ids, in order. A window of ids, not a number of
   * missing rows, bounds what one statement reads where most rows are indexed already.
   */
  addMissing(afterId: number, throughId: number): Promise<number[]>;
  /** After a build that added `added` entries: gives back the disk space the build took in passing and refreshes planner statistics (SQLite). */
  settle(added: number): Promise<void>;
  /**
   * Restricts a query over published articles (alias `a`) to those where every word occurs;
   * `documentColumn` is how the query names a.document_id (see pageColumn in articles/published-rows.ts);
   * `forPage`: the query walks the articles newest first and stops after a page, rather than
   * visiting every match; `matching`, when the caller counted exactly how many published articles
   * hold the words (and the query narrows by nothing else), lets the index choose how a page finds
   * them. Until the index is complete (see index-state) every word is found by a scan.
   * Resolves to nothing: a query builder is a thenable, which a promise would run.
   */
  filter(query: QueryBuilder, words: string[], documentColumn: RawSql, options: { forPage: boolean; matching?: number }): Promise<void>;
  /**
   * How many published articles hold every word, when the index can tell by itself (without
   * joining the articles), counting no further than `upTo` when it is a number; null when it
   * cannot, and the caller counts with filter.
   */
  countAlone(words: string[], upTo: number | null): Promise<number | null>;
  /**
   * What testing one article for the words costs on a newest-first walk, in matches read through
   * the index (see walks in articles/lists.ts, which weighs the two ways of finding a page by it).
   */
  walkTestCost: number;
  /**
   * Orders a query that filter() restricted to these words most relevant first (see
   * RELEVANCE_ORDER in shared.ts): the articles with every word in their title, then by how often
   * the words occur (title weighted above tags above content); equal ones are left for the caller's
   * newest-first order. A word's forms (see utils/word-stems.ts) count as the word. Resolves to
   * nothing, as filter does.
   */
  rank(query: QueryBuilder, words: string[]): Promise<void>;
  /**
   * A page of the published articles holding every word, most relevant first as rank() orders
   * them, as document ids, when the index can tell by itself (no other filter); null when it
   * cannot, and the caller ranks with filter and rank. The matches are counted apart (see countAlone).
   */
  rankedAlone(words: string[], limit: number, offset: number): Promise<string[] | null>;
  /**
   * Up to `limit` words the index holds that look like this one (share several of its trigrams),
   * most alike first: the candidates of "did you mean". Each is a word some article held; the
   * caller checks that it still finds something.
   */
  similarWords(word: string, limit: number): Promise<string[]>;
}

/** What each database does its own way; isComplete and lastArticleId are the same SQL on both. */
export type DialectSearch = Omit<SearchIndex, 'isComplete' | 'lastArticleId'>;

export const searchIndex = oncePerStrapi((strapi: Core.Strapi): SearchIndex => ({
  isComplete: () => coversThePublishedRows(readDatabase(strapi)),
  lastArticleId: () => lastArticleId(database(strapi)),
  ...(isSqlite(strapi) ? sqliteSearch(strapi) : postgresSearch(strapi)),
}));
