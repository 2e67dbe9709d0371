import { TABLES } from '../../constants';
import { countsComplete, indexComplete } from '../../infrastructure/index-state';
import { articleCounts } from '../article-counts';
import { limitRows, limitSql } from '../../infrastructure/row-limits';
import { longReadRows, readFixedRows, readRows, type PlannerScans, type RawSql } from '../../infrastructure/transactions';
import { searchIndex } from '../search';
import { hasTagByScan } from '../tags';
import type { PublishedRows, QueryBuilder } from './published-rows';
import type { ListPosition } from '../../domain/list-cursor';
import {
  NEWEST_FIRST,
  PAST_POSITION,
  PUBLISHED_COUNT,
  PUBLISHED_IDS,
  PUBLISHED_SUMMARIES,
  READ_COUNT,
  readMostIds,
  UNREAD_IDS,
} from './queries';
import { type ArticleRecord, documentIdsOf, pageRowsOf, parseSummaryRow, type SummaryRow } from './rows';

/** What a list may be narrowed by: words of q, a category (name or slug, any case), a tag key. */
export interface ArticleFilters {
  words: string[];
  category: string | null;
  tagKey: string | null;
}

/**
 * Where a page starts: after `offset` articles of the list, or just past a position in it (a
 * cursor's), `after` it (older articles) or `before` it (newer ones).
 */
export type PageStart = { offset: number } | { after: ListPosition } | { before: ListPosition };

/**
 * How many articles a list's filters select: exact, or a lower bound where counting was stopped
 * (a search with more matches than its bound: `total` is the bound, `exact` false).
 */
export interface ArticleCount {
  total: number;
  exact: boolean;
}

/** No narrowing: every published article. */
export const EVERY_ARTICLE: ArticleFilters = { words: [], category: null, tagKey: null };

/**
 * Until the counts are made (see article-counts), up to this many matches a page is read through its
 * matches, beyond it by a walk newest first (see walks).
 */
const FEW_MATCHES = 100;

/** Counts and pages of the published articles, narrowed by a list's filters. */
export const articleLists = ({
  strapi,
  knex,
  sqlite,
  publishedRows,
  publishedRowsById,
  pageColumn,
  newestFirst,
  withSummaryColumns,
  summariesInOrder,
  summariesOfRows,
}: PublishedRows) => {
  /** The ids of the categories a filter names (by name or slug, any case): a handful of rows, read first so the link table's index is used. */
  const categoryIdsNamed = async (category: string): Promise<number[]> => {
    const key = category.toLowerCase();
    const rows = (await knex()(TABLES.categories)
      .select('id')
      .whereRaw('LOWER(name) = ?', [key])
      .orWhereRaw('LOWER(slug) = ?', [key])) as Array<{ id: number | string }>;
    return rows.map((row) => Number(row.id));
  };

  /**
   * The published articles the filters select, each filter a set of documents (or rows) the article
   * must be in: the search index's matches, the tag index's documents, the category's links. For a
   * page (`forPage`) the sets are written for a newest-first walk (see pageColumn and within).
   * Null: a named category does not exist, so nothing matches. (The query comes wrapped: a query
   * builder is a thenable, which an async function's promise would run.)
   */
  const filtered = async (
    filters: ArticleFilters,
    { forPage, matching }: { forPage: boolean; matching?: number },
  ): Promise<{ query: QueryBuilder } | null> => {
    const column = (name: string): RawSql => (forPage ? pageColumn(name) : knex().raw('??', [name]));
    // A page walks the published_at index instead (see pageColumn).
    const query = filters.category !== null && !forPage ? publishedRowsById() : publishedRows();
    /**
     * Keeps the articles whose `articleColumn` is among the `setColumn` of `set`. A walk asks each
     * article it passes (EXISTS, one lookup in the set's unique index); `IN` had SQLite list the
     * whole set first, on every page: 110 instead of 0.3 ms for page 1 of a category of 208,000 of
     * a million articles, 61 instead of 0.3 ms for a tag of 259,000.
     */
    const within = (set: QueryBuilder, setColumn: string, articleColumn: string): void => {
      if (forPage) query.whereExists(set.select(knex().raw('1')).whereRaw('?? = ??', [setColumn, articleColumn]));
      else query.whereRaw('? IN ?', [column(articleColumn), set.select(setColumn)]);
    };
    // How many the words match is known where they alone narrow the list.
    const wordsAlone = filters.category === null && filters.tagKey === null;
    await searchIndex(strapi).filter(query, filters.words, column('a.document_id'), { forPage, ...(wordsAlone ? { matching } : {}) });
    if (filters.category !== null) {
      const categoryIds = await categoryIdsNamed(filters.category);
      if (categoryIds.length === 0) return null;
      within(knex()({ l: TABLES.articleCategoryLinks }).whereIn('l.category_id', categoryIds), 'l.article_id', 'a.id');
    }
    if (filters.tagKey !== null) {
      if (indexComplete(strapi)) within(knex()({ t: TABLES.tags }).where('t.tag', filters.tagKey), 't.document_id', 'a.document_id');
      else {
        const scan = hasTagByScan('a.tags', filters.tagKey, sqlite);
        query.whereRaw(scan.sql, scan.bindings);
      }
    }
    return { query };
  };

  /**
   * The summaries of a filtered list's page: a long read (see longReadRows). On PostgreSQL the
   * page's ids, then their summaries (see summariesOfRows).
   */
  const filteredRecords = async (query: QueryBuilder, scans: PlannerScans = 'any'): Promise<ArticleRecord[]> =>
    sqlite
      ? ((await longReadRows(strapi, withSummaryColumns(query))) as SummaryRow[]).map(parseSummaryRow)
      : summariesOfRows(pageRowsOf(await longReadRows(strapi, query.select('a.id', 'a.document_id'), scans)));

  const narrowsNothing = (filters: ArticleFilters): boolean =>
    filters.words.length === 0 && filters.category === null && filters.tagKey === null;

  /**
   * A page of every published article most read first, as document ids: the read ones by a walk
   * of their counts' index, then the unread ones newest first, each walk stopping after the page
   * (at 100,000 articles: instead of sorting them all by their counts every time). The read ones
   * are counted only for a page past them all, to know where among the unread it starts.
   */
  const mostReadIds = async (limit: number, offset: number): Promise<string[]> => {
    const read = documentIdsOf(await readRows(strapi, `${readMostIds(sqlite)} ${limitSql(limit, offset)}`));
    if (read.length === limit) return read;
    const readBefore =
      read.length > 0 || offset === 0
        ? offset + read.length
        : Number(((await longReadRows(strapi, knex().raw(READ_COUNT))) as Array<{ total: number | string }>)[0]?.total ?? 0);
    const unread = documentIdsOf(
      await readRows(strapi, `${UNREAD_IDS} ${limitSql(limit - read.length, Math.max(0, offset - readBefore))}`),
    );
    return [...read, ...unread];
  };

  /**
   * The total from the counts the write pipeline keeps (see article-counts), where one of them is
   * the answer: no filter, only a category (naming one category), only a tag. Null elsewhere (a
   * search counts its matches exactly, from its index), and until the counts are made.
   */
  const keptCount = async (filters: ArticleFilters): Promise<number | null> => {
    if (filters.words.length > 0 || !countsComplete(strapi)) return null;
    const counts = articleCounts(strapi);
    if (filters.category === null && filters.tagKey === null) return counts.total();
    if (filters.category !== null && filters.tagKey === null) {
      const categoryIds = await categoryIdsNamed(filters.category);
      if (categoryIds.length === 0) return 0;
      // A name one category has and the slug another has: the articles of either, counted once, from the rows.
      return categoryIds.length === 1 ? counts.inCategory(categoryIds[0]) : null;
    }
    if (filters.category === null && filters.tagKey !== null) return counts.withTag(filters.tagKey);
    return null;
  };

  /**
   * Whether a page of `matching` articles is found with less reading by a walk of every published
   * article newest first, testing each, until `rows` matches have passed (about rows × published /
   * matching articles tested), than by reading every match and sorting them. For a category of
   * 208,000 of a million articles the walk tests about 50; for a tag of 1,000, 10,000, where
   * reading its 1,000 matches is the shorter way. `testCost`: what testing one article costs, in
   * matches read (a search's, see SearchIndex.walkTestCost). Matches not counted: the walk. Until
   * the kept counts are made: the walk beyond FEW_MATCHES matches.
   */
  const walks = async (matching: number | undefined, rows: number, testCost: number): Promise<boolean> => {
    if (matching === undefined) return true;
    if (!countsComplete(strapi)) return matching > FEW_MATCHES;
    return testCost * rows * (await articleCounts(strapi).totalAbout()) <= matching * matching;
  };

  /**
   * How many published articles the filters select: from the kept counts or the published count
   * (exact, whatever their number), else from the search index alone or the rows, where counting
   * stops past `atMost` matches (a search's cost is mostly its counting: 132 ms for a word's
   * matches at a million articles) and the answer is the lower bound `atMost`, not exact.
   */
  const count = async (filters: ArticleFilters, atMost = Number.POSITIVE_INFINITY): Promise<ArticleCount> => {
    const exactly = (total: number): ArticleCount => ({ total, exact: true });
    const bounded = (counted: number): ArticleCount => (counted > atMost ? { total: atMost, exact: false } : exactly(counted));
    const kept = await keptCount(filters);
    if (kept !== null) return exactly(kept);
    if (narrowsNothing(filters))
      return exactly(Number(((await readFixedRows(strapi, PUBLISHED_COUNT)) as Array<{ total: number | string }>)[0]?.total ?? 0));
    // One match past the bound says that there are more.
    const countedUpTo = Number.isFinite(atMost) ? atMost + 1 : null;
    if (filters.category === null && filters.tagKey === null && filters.words.length > 0) {
      const matches = await searchIndex(strapi).countAlone(filters.words, countedUpTo);
      if (matches !== null) return bounded(matches);
    }
    const selected = await filtered(filters, { forPage: false });
    if (selected === null) return exactly(0);
    const counting =
      countedUpTo === null
        ? selected.query.count({ total: '*' })
        : knex()
            .count({ total: '*' })
            .from(selected.query.select(knex().raw('1')).limit(countedUpTo).as('m'));
    const [row] = (await longReadRows(strapi, counting)) as Array<{ total: number | string }>;
    return bounded(Number(row?.total ?? 0));
  };

  return {
    categoryIdsNamed,

    /** Words the search index holds that look like this one (see SearchIndex.similarWords). */
    similarWords: (word: string, limit: number): Promise<string[]> => searchIndex(strapi).similarWords(word, limit),

    count,

    /**
     * One page of the filtered articles `offset` articles in, most relevant first (see
     * SearchIndex.rank; `filters` must hold words) or most read first (their stored counts), ties
     * newest first, with how many articles the filters select (counted as count() counts them, up
     * to `atMost`) and whether another page follows (past a lower bound: one article more is read
     * to know). Every match is ordered, except by the search index's own ranking (SQLite), which
     * stops at the page where the articles with every word in their title reach past it.
     */
    async ranked(
      filters: ArticleFilters,
      order: 'relevance' | 'views',
      limit: number,
      offset: number,
      atMost = Number.POSITIVE_INFINITY,
    ): Promise<{ counted: ArticleCount; records: ArticleRecord[]; hasNext: boolean }> {
      const counted = await count(filters, atMost);
      if (counted.exact && offset >= counted.total) return { counted, records: [], hasNext: false };
      const read = counted.exact ? limit : limit + 1;
      const pageOf = async (documentIds: string[]) => {
        const records = await summariesInOrder(documentIds);
        const hasNext = counted.exact ? records.length > 0 && offset + records.length < counted.total : records.length > limit;
        return { counted, records: records.slice(0, limit), hasNext };
      };
      const alone =
        order === 'relevance' && filters.category === null && filters.tagKey === null
          ? await searchIndex(strapi).rankedAlone(filters.words, read, offset)
          : null;
      if (alone !== null) return pageOf(alone);
      if (order === 'views' && narrowsNothing(filters)) return pageOf(await mostReadIds(read, offset));
      const selected = await filtered(filters, { forPage: false });
      if (selected === null) return { counted, records: [], hasNext: false };
      // The matches are sorted by their document ids and sort keys alone (a sort that carried
      // every match's text would hold it all at once); only the page's rows are read whole.
      const query = selected.query.select('a.document_id');
      if (order === 'relevance') await searchIndex(strapi).rank(query, filters.words);
      else query.leftJoin({ v: TABLES.viewCounts }, 'v.article_document_id', 'a.document_id').orderByRaw('COALESCE(v.views, 0) DESC');
      return pageOf(documentIdsOf(await longReadRows(strapi, limitRows(newestFirst(query), read, offset))));
    },

    /**
     * One page of the filtered articles, newest first, from where it starts (see PageStart): past a
     * position it is a keyset page, whose cost is the same at page 10,000 as at page 1. `matching`,
     * when the caller has counted them exactly (a lower bound is no help): where walking the published articles newest first until a
     * page is found would test more articles than there are matches (see walks; the whole archive,
     * for a word in a handful of articles), the page is read through the matches and sorted.
     */
    async newest(filters: ArticleFilters, limit: number, start: PageStart = { offset: 0 }, matching?: number): Promise<ArticleRecord[]> {
      const offset = 'offset' in start ? start.offset : 0;
      const past =
        'after' in start
          ? { ...PAST_POSITION.after, position: start.after }
          : 'before' in start
            ? { ...PAST_POSITION.before, position: start.before }
            : null;
      // Newest first, whichever way the page was read.
      const inOrder = (records: ArticleRecord[]) => ('before' in start ? records.reverse() : records);
      const positionValues =
        past === null ? [] : [new Date(past.position.publishedMs), new Date(past.position.createdMs), past.position.documentId];
      // The latest, the unfiltered list and a feed of every category: a page of the published_at index.
      if (narrowsNothing(filters)) {
        // PostgreSQL: the page's ids, then their summaries (see summariesOfRows).
        const selected = sqlite ? PUBLISHED_SUMMARIES : PUBLISHED_IDS;
        const sql = past === null ? `${selected} ORDER BY ${NEWEST_FIRST}` : `${selected} AND ${past.where} ORDER BY ${past.order}`;
        const rows = await readRows(strapi, `${sql} ${limitSql(limit, offset)}`, positionValues);
        return inOrder(sqlite ? (rows as SummaryRow[]).map(parseSummaryRow) : await summariesOfRows(pageRowsOf(rows)));
      }
      const searching = filters.words.length > 0;
      const walk = await walks(matching, offset + limit, searching ? searchIndex(strapi).walkTestCost : 1);
      const selected = await filtered(filters, { forPage: walk, matching });
      if (selected === null) return [];
      const ordered = (query: QueryBuilder): QueryBuilder =>
        past === null ? newestFirst(query) : query.whereRaw(past.where, positionValues).orderByRaw(past.order);
      // PostgreSQL reads any page as its ids first (see filteredRecords); a search's matches
      // through the word index's array index, never by reading every entry (see its filter).
      if (walk || !sqlite) {
        const scans = !walk && searching ? 'no-sequential' : 'any';
        return inOrder(await filteredRecords(limitRows(ordered(selected.query), limit, offset), scans));
      }
      // The matches are sorted by their ids and dates alone; only the page's rows are read with their summaries.
      const page = limitRows(ordered(selected.query.select('a.id')), limit, offset);
      return filteredRecords(newestFirst(publishedRows().whereIn('a.id', page)));
    },
  };
};
