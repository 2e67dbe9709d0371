import { TABLES } from '../../constants';
import { lastOfBatch } from '../../infrastructure/document-batches';
import { firstRow } from '../../infrastructure/row-limits';
import type { Knex } from '../../infrastructure/transactions';
import { yieldToEventLoop } from '../../utils/event-loop';
import { FOLD_SQL_FUNCTION, foldCase, likeFindsAsFolded, likeHolding } from '../../utils/search-words';

// What both databases' indexes share: how an entry is judged current, and the scan that stands in for the index.

type QueryBuilder = ReturnType<Knex>;

/**
 * The published row an entry (alias `alias`) was built from, if it still exists: for NOT EXISTS.
 * The unary + on the id lets SQLite find the row in the (document_id, locale, published_at) index,
 * which holds every column asked (the id is its row id), instead of reading the article's row with
 * its text: 7 s instead of 83 s for 628,000 entries at a million articles.
 */
function builtFrom(db: Knex, alias: string): QueryBuilder {
  return db({ a: TABLES.articles })
    .select(db.raw('1'))
    .whereRaw(`+a.id = ${alias}.article_id AND a.document_id = ${alias}.document_id`)
    .whereNotNull('a.published_at');
}

/** See SearchIndex.isComplete. */
export async function coversThePublishedRows(db: Knex): Promise<boolean> {
  const totals = async (query: QueryBuilder, idColumn: string): Promise<string> => {
    const row = (await firstRow(query.count({ count: '*' }).sum({ ids: idColumn }))) as
      { count: number | string; ids: number | string | null } | undefined;
    return `${String(row?.count ?? 0)}:${BigInt(String(row?.ids ?? 0)).toString()}`;
  };
  return (
    (await totals(db(TABLES.articles).whereNotNull('published_at'), 'id')) === (await totals(db(TABLES.searchDocuments), 'article_id'))
  );
}

export async function lastArticleId(db: Knex): Promise<number> {
  const row = (await firstRow(db(TABLES.articles).max({ id: 'id' }))) as { id: number | string | null } | undefined;
  return Number(row?.id ?? 0);
}

/** Documents whose entry was not built from a current published row, looked for a batch of entries per statement (see lastOfBatch). */
export async function staleEntries(db: Knex): Promise<string[]> {
  const stale: string[] = [];
  for (let after = ''; ;) {
    const last = await lastOfBatch(db, TABLES.searchDocuments, after);
    if (last === null) return stale;
    const rows = (await db({ d: TABLES.searchDocuments })
      .select('d.document_id')
      .where('d.document_id', '>', after)
      .where('d.document_id', '<=', last)
      .whereNotExists(builtFrom(db, 'd'))) as Array<{ document_id: string }>;
    stale.push(...rows.map((row) => String(row.document_id)));
    after = last;
    await yieldToEventLoop();
  }
}

const SCANNED_COLUMNS = ['a.title', 'a.content', 'a.tags'];

/**
 * Restricts a query over published articles (alias `a`) to those where a word occurs in the title,
 * content or tags, in any case, by reading each article's text: one test per column, the text's
 * case folded once. SQLite folds with the plugin's own function (Unicode, as the index and
 * PostgreSQL's word index fold; its LOWER folds ASCII only), which only the long-read thread's
 * connection has: a search always runs there (see long-reads.ts); a word LIKE finds as the fold
 * does is tested by LIKE instead (see textHolds). PostgreSQL folds with LOWER, which follows the
 * database's locale (any UTF-8 locale folds all of Unicode).
 */
export function scanFor(query: QueryBuilder, word: string, sqlite: boolean): void {
  const folded = foldCase(word);
  query.where((clause) => {
    for (const column of SCANNED_COLUMNS) {
      const holds = textHolds(column, folded, sqlite);
      clause.orWhereRaw(holds.sql, holds.bindings);
    }
  });
}

/**
 * SQL true where a column's text, its case folded, holds a folded word (see scanFor). On SQLite,
 * where LIKE finds the word exactly as the fold does (see likeFindsAsFolded), by LIKE, in SQLite's
 * own C: a scan of 100,000 articles' title, content and tags took 345–403 ms that way against
 * 959–969 ms through the fold's JavaScript function, which converts each text to a JavaScript
 * string and back.
 */
export function textHolds(column: string, folded: string, sqlite: boolean): { sql: string; bindings: string[] } {
  if (!sqlite) return { sql: `strpos(LOWER(${column}), ?) > 0`, bindings: [folded] };
  if (likeFindsAsFolded(folded)) return { sql: `${column} LIKE ? ESCAPE '\\'`, bindings: [likeHolding(folded)] };
  return { sql: `instr(${FOLD_SQL_FUNCTION}(${column}), ?) > 0`, bindings: [folded] };
}

/** How much an occurrence counts in each column, where the relevance is counted from the text (see orderByTextScore). */
export const COLUMN_WEIGHTS = { title: 10, tags: 5, content: 1 } as const;

/**
 * The SQL function a text is folded with to count a folded word's occurrences in it (see
 * orderByTextScore). On SQLite a word LIKE finds as the fold does (see likeFindsAsFolded) is counted
 * in the text lower-cased by SQLite itself (ASCII letters only, in C): the same non-overlapping
 * occurrences, without the fold's JavaScript function on each text.
 */
function countingFold(word: string, sqlite: boolean): string {
  if (!sqlite) return 'LOWER';
  return likeFindsAsFolded(word) ? 'lower' : FOLD_SQL_FUNCTION;
}

/**
 * Orders a query over published articles (alias `a`) most relevant first by reading their text:
 * the articles with every word in their title first, then by the occurrences of the words, each
 * weighted by its column (COLUMN_WEIGHTS). Occurrences are counted as (length - length without the
 * word) / the word's length, in the folded text (see scanFor), so the count is exact and linear.
 * PostgreSQL ranks this way always, SQLite where its index cannot (words under three characters
 * only, or while the index is built).
 */
export function orderByTextScore(query: QueryBuilder, words: string[], sqlite: boolean): QueryBuilder {
  const wordsFolded = words.map(foldCase);
  const inTitle = wordsFolded.map((word) => textHolds(`COALESCE(a.title, '')`, word, sqlite));
  const occurrences: string[] = [];
  const bindings: string[] = [];
  for (const word of wordsFolded) {
    const fold = countingFold(word, sqlite);
    const folded = (column: string): string => `${fold}(COALESCE(${column}, ''))`;
    // The word's length is one the plugin computed: written into the SQL as an integer.
    const length = [...word].length;
    for (const [column, weight] of Object.entries(COLUMN_WEIGHTS)) {
      occurrences.push(`${weight} * ((length(${folded(`a.${column}`)}) - length(replace(${folded(`a.${column}`)}, ?, ''))) / ${length})`);
      bindings.push(word);
    }
  }
  return query
    .orderByRaw(
      `CASE WHEN ${inTitle.map((holds) => holds.sql).join(' AND ')} THEN 0 ELSE 1 END`,
      inTitle.flatMap((holds) => holds.bindings),
    )
    .orderByRaw(`(${occurrences.join(' + ')}) DESC`, bindings);
}

/** Runs of letters and digits: the words a suggestion is made of (an index's words keep their punctuation, "prewedding,"). */
export function lettersAndDigits(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+/gu) ?? [];
}
