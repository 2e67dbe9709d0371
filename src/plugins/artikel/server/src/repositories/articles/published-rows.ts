import type { Core } from '@strapi/strapi';
import { TABLES } from '../../constants';
import { isSqlite } from '../../infrastructure/database-dialect';
import { readDatabase, readFixedRows, readRows, type Knex, type RawSql } from '../../infrastructure/transactions';
import {
  ARTICLES_BY_PUBLISHED_ID,
  CATEGORY_JOINS,
  NEWEST_FIRST,
  publishedSummaries,
  SUMMARIES_OF_DOCUMENTS,
  SUMMARIES_OF_IDS,
  SUMMARY_COLUMNS,
  SUMMARY_JOINS,
} from './queries';
import { type ArticleRecord, type PageRow, parseSummaryRow, type SummaryRow } from './rows';

export type QueryBuilder = ReturnType<Knex>;

/** The query builders every read of published articles starts from, on one Strapi's connections (see index.ts). */
export const publishedRowsOf = (strapi: Core.Strapi) => {
  // Only reads here: outside a write they run on SQLite's read-only connection (see readDatabase).
  const knex = (): Knex => readDatabase(strapi);

  const sqlite = isSqlite(strapi);

  /** Published article rows (alias `a`): the base of every query here. */
  const publishedRows = (): QueryBuilder => knex()({ a: TABLES.articles }).whereNotNull('a.published_at');

  /**
   * The same rows, for a query that picks them by their ids (a category's links): SQLite looks each
   * id up in the index of published ids instead of reading the row, whose published_at lies past
   * its text, in its overflow pages. Counting a category of 700 of 10,000 articles took 0.8 instead
   * of 5.0 ms. SQLite's planner takes the index by itself only once ANALYZE has run; PostgreSQL's
   * chooses it by itself.
   */
  const publishedRowsById = (): QueryBuilder =>
    sqlite ? knex().from(knex().raw(ARTICLES_BY_PUBLISHED_ID)).whereNotNull('a.published_at') : publishedRows();

  /** Published article rows with their category link (`l`) and category (`c`). */
  const published = (): QueryBuilder => publishedRows().joinRaw(CATEGORY_JOINS);

  const newestFirst = (query: QueryBuilder): QueryBuilder => query.orderByRaw(NEWEST_FIRST);

  /**
   * How a page query names the article's columns in its filters. SQLite plans a page newest first
   * best by walking the published_at index and stopping after one page; a filter on a plain column
   * lets it drive by the filter's set instead and sort every match (with its text) first. A unary
   * + keeps the column from being used that way. PostgreSQL plans either well.
   */
  const pageColumn = (column: string): RawSql => knex().raw(sqlite ? '+??' : '??', [column]);

  /**
   * The summary columns of each article a query selects (its category, view count and uploaded
   * cover), and any `extra` columns of `a`. Written as one piece of SQL: knex quotes each named
   * column anew on every query, a tenth of an uncached latest's time. None of the names needs quoting.
   */
  const withSummaryColumns = (query: QueryBuilder, extra: string[] = []): QueryBuilder =>
    query.joinRaw(SUMMARY_JOINS).select(knex().raw([...SUMMARY_COLUMNS, ...extra].join(', ')));

  const summaryRows = async <Row extends SummaryRow>(query: QueryBuilder, extra: string[] = []): Promise<Row[]> =>
    (await withSummaryColumns(query, extra)) as Row[];

  /** The summaries of these published articles, in this order: one indexed lookup each, on the event loop (see readRows). */
  const summariesInOrder = async (documentIds: string[]): Promise<ArticleRecord[]> => {
    if (documentIds.length === 0) return [];
    const rows = sqlite
      ? await readRows(strapi, `${publishedSummaries()} AND a.document_id IN (${documentIds.map(() => '?').join(', ')})`, documentIds)
      : await readFixedRows(strapi, SUMMARIES_OF_DOCUMENTS, [documentIds]);
    const found = new Map((rows as SummaryRow[]).map(parseSummaryRow).map((record) => [record.documentId, record]));
    return documentIds.flatMap((id) => found.get(id) ?? []);
  };

  /**
   * PostgreSQL: the summaries of a page's published rows, in this order. A page is read as its
   * rows' ids first, then their summaries by one prepared statement (see readFixedRows): the
   * planner plans a page's filters alone, and the join of six tables for the summaries once. The
   * two are separate statements: an article published again between them (an edit of a published
   * article replaces its published row) is read by its document instead, so the page keeps it.
   */
  const summariesOfRows = async (page: PageRow[]): Promise<ArticleRecord[]> => {
    if (page.length === 0) return [];
    const rows = (await readFixedRows(strapi, SUMMARIES_OF_IDS, [page.map((row) => row.id)])) as Array<SummaryRow & { id: unknown }>;
    const found = new Map(rows.map((row) => [Number(row.id), parseSummaryRow(row)]));
    const replaced = page.filter((row) => !found.has(row.id)).map((row) => row.documentId);
    const republished = new Map((await summariesInOrder(replaced)).map((record) => [record.documentId, record]));
    return page.flatMap((row) => found.get(row.id) ?? republished.get(row.documentId) ?? []);
  };

  return {
    strapi,
    knex,
    sqlite,
    publishedRows,
    summariesInOrder,
    summariesOfRows,
    publishedRowsById,
    published,
    newestFirst,
    pageColumn,
    withSummaryColumns,
    summaryRows,
  };
};

export type PublishedRows = ReturnType<typeof publishedRowsOf>;
