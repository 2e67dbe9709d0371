import type { Core } from '@strapi/strapi';
import { TABLES } from '../constants';
import { isSqlite } from '../infrastructure/database-dialect';
import { FOLD_SQL_FUNCTION, foldCase, ftsAllOf, searchTerms, splitSearchWords } from '../utils/search-words';
import { indexComplete } from '../infrastructure/index-state';
import { yieldToEventLoop } from '../utils/event-loop';
import { lastOfBatch } from '../infrastructure/document-batches';
import { escapeLike } from './like-patterns';
import { database, longReadRows, readDatabase, type Knex, type RawSql } from '../infrastructure/transactions';
import { firstRow } from '../infrastructure/row-limits';

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
   * visiting every match. Until the index is complete (see index-state) every word is found by a scan.
   */
  filter(query: QueryBuilder, words: string[], documentColumn: RawSql, options: { forPage: boolean }): QueryBuilder;
  /**
   * How many published articles hold every word, when the index can tell by itself (without
   * joining the articles); null when it cannot, and the caller counts with filter.
   */
  countAlone(words: string[]): Promise<number | null>;
}

/** What each database does its own way; isComplete and lastArticleId are the same SQL on both. */
type DialectSearch = Omit<SearchIndex, 'isComplete' | 'lastArticleId'>;

// Knex writes a multi-row insert on SQLite as one compound SELECT, which SQLite caps at 500 terms.
const BATCH = 500;
const FTS_DEFAULT_AUTOMERGE = 4;
// A build of more entries than this is checkpointed and analysed after (see settle); a repair of a few is not.
const SETTLE_AFTER = 2000;
/** PostgreSQL: longest word (in characters, up to 4 bytes each) kept in the dictionary; btree keys end near 2,700 bytes. */
const LONG_WORD = 200;
const isLong = (word: string): boolean => [...word].length > LONG_WORD;

/** A long word's overlapping pieces: every substring of up to LONG_WORD + 1 characters lies in one. */
function piecesOf(word: string): string[] {
  const characters = [...word];
  const pieces: string[] = [];
  for (let start = 0; ; start += LONG_WORD) {
    pieces.push(characters.slice(start, start + 2 * LONG_WORD).join(''));
    if (start + 2 * LONG_WORD >= characters.length) return pieces;
  }
}

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

/** Index tables from before entries recorded their row get the column; their entries (null) are rebuilt. */
async function addArticleIdColumn(db: Knex): Promise<void> {
  if (await db.schema.hasColumn(TABLES.searchDocuments, 'article_id')) return;
  await db.schema.alterTable(TABLES.searchDocuments, (table) => {
    table.integer('article_id');
  });
}

/** See SearchIndex.isComplete. */
async function coversThePublishedRows(db: Knex): Promise<boolean> {
  const totals = async (query: QueryBuilder, idColumn: string): Promise<string> => {
    const row = (await firstRow(query.count({ count: '*' }).sum({ ids: idColumn }))) as
      { count: number | string; ids: number | string | null } | undefined;
    return `${String(row?.count ?? 0)}:${BigInt(String(row?.ids ?? 0)).toString()}`;
  };
  return (
    (await totals(db(TABLES.articles).whereNotNull('published_at'), 'id')) === (await totals(db(TABLES.searchDocuments), 'article_id'))
  );
}

async function lastArticleId(db: Knex): Promise<number> {
  const row = (await firstRow(db(TABLES.articles).max({ id: 'id' }))) as { id: number | string | null } | undefined;
  return Number(row?.id ?? 0);
}

/** Documents whose entry was not built from a current published row, looked for a batch of entries per statement (see lastOfBatch). */
async function staleEntries(db: Knex): Promise<string[]> {
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
 * connection has: a search always runs there (see long-reads.ts). PostgreSQL folds with
 * LOWER, which follows the database's locale (any UTF-8 locale folds all of Unicode).
 */
function scanFor(query: QueryBuilder, word: string, sqlite: boolean): void {
  const folded = foldCase(word);
  query.where((clause) => {
    for (const column of SCANNED_COLUMNS) {
      if (sqlite) clause.orWhereRaw(`instr(${FOLD_SQL_FUNCTION}(${column}), ?) > 0`, [folded]);
      else clause.orWhereRaw(`strpos(LOWER(${column}), ?) > 0`, [folded]);
    }
  });
}

interface PublishedText {
  id: number;
  document_id: string;
  title: string | null;
  content: string | null;
  tags: string | null;
}

/**
 * SQLite: an FTS5 index with the trigram tokenizer, which matches any substring of three or more
 * characters, case-insensitively for all of Unicode. It is contentless (the text already lives in
 * articles); its rowid is the id of the document's row in artikel_search_docs, because published
 * article rows are replaced on every publish. Shorter words are matched by a LIKE scan.
 */
function sqliteSearch(strapi: Core.Strapi): DialectSearch {
  const knex = () => database(strapi);

  /** The words the index answers and those read by a scan: every word, until the index is complete. */
  const wordsByIndex = (words: string[]): { indexed: string[]; scanned: string[] } =>
    indexComplete(strapi) ? splitSearchWords(words) : { indexed: [], scanned: words };

  /** FTS5 rows are addressed by rowid only, so a document's entry is removed through its docs row. */
  const remove = async (db: Knex, documentIds: string[]): Promise<void> => {
    for (let start = 0; start < documentIds.length; start += BATCH) {
      const batch = documentIds.slice(start, start + BATCH);
      const placeholders = batch.map(() => '?').join(', ');
      await db.raw(
        `DELETE FROM ${TABLES.search} WHERE rowid IN (SELECT id FROM ${TABLES.searchDocuments} WHERE document_id IN (${placeholders}))`,
        batch,
      );
      await db(TABLES.searchDocuments).whereIn('document_id', batch).delete();
    }
  };

  /**
   * Indexes published articles that have no entry yet: the one document given, or those of article
   * ids `afterId` + 1 to `throughId`. Returns the ids of the article rows indexed. The unary + and
   * CROSS JOIN pin the plans to id ranges: with the published_at index SQLite would read every
   * published article for each chunk.
   */
  const add = async (db: Knex, scope: { documentId: string } | { afterId: number; throughId: number }): Promise<number[]> => {
    const [filter, bindings] =
      'documentId' in scope ? ['a.document_id = ?', [scope.documentId]] : ['a.id > ? AND a.id <= ?', [scope.afterId, scope.throughId]];
    const before = (await firstRow(db(TABLES.searchDocuments).max({ id: 'id' }))) as { id: number | null } | undefined;
    const lastDocsId = Number(before?.id ?? 0);
    await db.raw(
      `INSERT INTO ${TABLES.searchDocuments} (document_id, article_id)
       SELECT a.document_id, a.id FROM ${TABLES.articles} a
       WHERE +a.published_at IS NOT NULL AND ${filter}
         AND NOT EXISTS (SELECT 1 FROM ${TABLES.searchDocuments} d WHERE d.document_id = a.document_id)
       ORDER BY a.id`,
      bindings,
    );
    await db.raw(
      `INSERT INTO ${TABLES.search} (rowid, title, content, tags)
       SELECT d.id, COALESCE(a.title, ''), COALESCE(a.content, ''), COALESCE(a.tags, '')
       FROM ${TABLES.searchDocuments} d CROSS JOIN ${TABLES.articles} a ON a.id = d.article_id
       WHERE d.id > ?`,
      [lastDocsId],
    );
    const rows = (await db(TABLES.searchDocuments).select('article_id').where('id', '>', lastDocsId).orderBy('article_id')) as Array<{
      article_id: number | string;
    }>;
    return rows.map((row) => Number(row.article_id));
  };

  return {
    async ensure({ empty }) {
      if (empty) {
        await knex().schema.dropTableIfExists(TABLES.search);
        await knex().schema.dropTableIfExists(TABLES.searchDocuments);
      }
      if (!(await knex().schema.hasTable(TABLES.searchDocuments))) {
        await knex().schema.createTable(TABLES.searchDocuments, (table) => {
          table.increments('id');
          table.string('document_id', 255).notNullable().unique();
          table.integer('article_id');
        });
      } else {
        await addArticleIdColumn(knex());
      }
      await knex().raw(
        `CREATE VIRTUAL TABLE IF NOT EXISTS ${TABLES.search} USING fts5(title, content, tags, tokenize = 'trigram', content = '', contentless_delete = 1)`,
      );
      // Earlier versions paused FTS5's automatic merging during a build; written on every boot, so a
      // build of theirs cut off by a stop or a crash does not leave it paused. (FTS5 takes the value
      // as an integer only, and better-sqlite3 binds a number as a real: it is written into the SQL.)
      await knex().raw(`INSERT INTO ${TABLES.search} (${TABLES.search}, rank) VALUES ('automerge', ${FTS_DEFAULT_AUTOMERGE})`);
    },

    async sync(trx, documentId) {
      await remove(trx, [documentId]);
      await add(trx, { documentId });
    },

    async removeStale() {
      const stale = await staleEntries(knex());
      await knex().transaction((trx) => remove(trx, stale));
      return stale;
    },

    async addMissing(afterId, throughId) {
      // FTS5's automatic merging stays on: it merges a little after each chunk. Paused, the segments
      // pile up until a "crisis merge" inside one insert, or a final optimize, merges them all in
      // one statement: minutes at a million articles, in which the process answers nothing.
      return add(knex(), { afterId, throughId });
    },

    async settle(added) {
      if (added <= SETTLE_AFTER) return;
      // The build went through the WAL; give its disk space back instead of keeping a file as big as the index.
      await knex().raw('PRAGMA wal_checkpoint(TRUNCATE)');
      // Refreshes planner statistics that an earlier ANALYZE took while the index was empty, if any;
      // each table is sampled, not read whole, so the statement stays short at a million articles.
      await knex().raw('PRAGMA analysis_limit = 1000');
      await knex().raw('PRAGMA optimize');
    },

    filter(query, words, documentColumn, { forPage }) {
      const { indexed, scanned } = wordsByIndex(words);
      // FTS5 MATCH has no query-builder form.
      if (indexed.length > 0 && forPage) {
        // The matches' entry ids, and for each article the page walks, its own entry's id: the
        // walk stops after a page, so a common word's thousands of matches are never mapped to
        // their documents (1.0 instead of 3.0 ms per page at 10,000 articles).
        query.whereRaw('? IN ?', [
          knex().select('d.id').from({ d: TABLES.searchDocuments }).where('d.document_id', documentColumn),
          knex()
            .select('rowid')
            .from(TABLES.search)
            .whereRaw(`${TABLES.search} MATCH ?`, [ftsAllOf(indexed)]),
        ]);
      } else if (indexed.length > 0) {
        query.whereRaw('? IN ?', [
          documentColumn,
          knex()
            .select('d.document_id')
            .from({ s: TABLES.search })
            .join({ d: TABLES.searchDocuments }, 'd.id', 's.rowid')
            .whereRaw(`${TABLES.search} MATCH ?`, [ftsAllOf(indexed)]),
        ]);
      }
      for (const word of scanned) scanFor(query, word, true);
      return query;
    },

    async countAlone(words) {
      const { indexed, scanned } = wordsByIndex(words);
      if (indexed.length === 0 || scanned.length > 0) return null;
      // A complete index holds one entry per published article, kept so by every write's own
      // transaction: its matches are the articles. 3.2 ms instead of 15.5 ms for a word in two
      // thirds of 10,000 articles, whose entries the join would look up one by one.
      const row = (await longReadRows(
        strapi,
        readDatabase(strapi).raw(`SELECT count(*) AS total FROM ${TABLES.search} WHERE ${TABLES.search} MATCH ?`, [ftsAllOf(indexed)]),
      )) as Array<{ total: number }>;
      return Number(row[0]?.total ?? 0);
    },
  };
}

/**
 * PostgreSQL: a word index. Each published article's row holds its distinct words (title, content
 * and tags lower-cased by the plugin with JavaScript's Unicode case mapping, so the answer does not
 * depend on the database's locale, split at white space) in an array with a GIN index, and a
 * dictionary holds every word with a pg_trgm index. A query word is looked up in the dictionary
 * (LIKE '%word%' over short words: cheap even where it must recheck) and the articles holding any
 * of the words found come from the array index, which answers overlap exactly, so no article's text
 * is read. Same answers as LIKE over the text: a query word has no white space, so it is a
 * substring of the text exactly when it is a substring of one of its words.
 *
 * Words longer than LONG_WORD (a URL, a pasted hash) would overflow a btree key: the array and the
 * dictionary hold them as overlapping pieces (2 × LONG_WORD characters, one starting every
 * LONG_WORD), which contain every substring of up to LONG_WORD + 1 characters, so a query word of up
 * to LONG_WORD characters finds them as any other; a longer query word (which only a long word can
 * contain) is looked up among the whole long words, kept per article in a table of their own.
 * The dictionary only grows (a word no article holds any more matches nothing); it is bounded by
 * the distinct words ever published. Without pg_trgm (a role that may not create it) the dictionary
 * is scanned: slower, same answers.
 */
function postgresSearch(strapi: Core.Strapi): DialectSearch {
  const knex = () => database(strapi);

  const insertEntries = async (db: Knex, rows: PublishedText[]): Promise<void> => {
    for (let start = 0; start < rows.length; start += BATCH) {
      const entries = rows.slice(start, start + BATCH).map((row) => {
        const terms = searchTerms(row);
        const longTerms = terms.filter(isLong);
        const indexed = new Set([...terms.filter((term) => !isLong(term)), ...longTerms.flatMap(piecesOf)]);
        return { document_id: row.document_id, article_id: row.id, terms: [...indexed], longTerms };
      });
      // Sorted, so that two transactions adding the same new words take their row locks in one order.
      const words = [...new Set(entries.flatMap((entry) => entry.terms))].sort();
      await db.raw(
        `INSERT INTO ${TABLES.searchTerms} (term) SELECT term FROM unnest(?::text[]) WITH ORDINALITY AS t(term, n) ORDER BY n ON CONFLICT DO NOTHING`,
        [words],
      );
      await db(TABLES.searchDocuments)
        .insert(entries.map(({ longTerms: _longTerms, ...entry }) => entry))
        .onConflict('document_id')
        .merge();
      const longTerms = entries.flatMap((entry) => entry.longTerms.map((term) => ({ document_id: entry.document_id, term })));
      if (longTerms.length > 0) await db(TABLES.searchLongTerms).insert(longTerms);
    }
  };

  const removeEntries = async (db: Knex, documentIds: string[]): Promise<void> => {
    await db(TABLES.searchDocuments).whereIn('document_id', documentIds).delete();
    await db(TABLES.searchLongTerms).whereIn('document_id', documentIds).delete();
  };

  /** Tables of the earlier form (each article's whole text, trigram-indexed) are replaced; rebuild() fills the new ones. */
  const dropEarlierForm = async (db: Knex): Promise<void> => {
    if ((await db.schema.hasTable(TABLES.searchDocuments)) && (await db.schema.hasColumn(TABLES.searchDocuments, 'body'))) {
      strapi.log.info('artikel: search index: replacing the whole-text index with the word index');
      await db.schema.dropTable(TABLES.searchDocuments);
    }
  };

  return {
    async ensure({ empty }) {
      await dropEarlierForm(knex());
      if (empty) {
        await knex().schema.dropTableIfExists(TABLES.searchDocuments);
        await knex().schema.dropTableIfExists(TABLES.searchLongTerms);
      }
      await knex().raw(
        `CREATE TABLE IF NOT EXISTS ${TABLES.searchDocuments} (document_id varchar(255) PRIMARY KEY, article_id integer, terms text[] NOT NULL)`,
      );
      await knex().raw(`CREATE INDEX IF NOT EXISTS ${TABLES.searchDocuments}_terms ON ${TABLES.searchDocuments} USING gin (terms)`);
      await knex().raw(`CREATE TABLE IF NOT EXISTS ${TABLES.searchTerms} (term text PRIMARY KEY)`);
      await knex().raw(`CREATE TABLE IF NOT EXISTS ${TABLES.searchLongTerms} (document_id varchar(255) NOT NULL, term text NOT NULL)`);
      await knex().raw(`CREATE INDEX IF NOT EXISTS ${TABLES.searchLongTerms}_document ON ${TABLES.searchLongTerms} (document_id)`);
      try {
        await knex().raw('CREATE EXTENSION IF NOT EXISTS pg_trgm');
        await knex().raw(`CREATE INDEX IF NOT EXISTS ${TABLES.searchTerms}_trgm ON ${TABLES.searchTerms} USING gin (term gin_trgm_ops)`);
      } catch (error) {
        strapi.log.warn(
          `artikel: search runs without the pg_trgm index (${String(error)}); ask the database owner to run CREATE EXTENSION pg_trgm`,
        );
      }
    },

    async sync(trx, documentId) {
      await removeEntries(trx, [documentId]);
      const published = (await trx(TABLES.articles)
        .select('id', 'document_id', 'title', 'content', 'tags')
        .where({ document_id: documentId })
        .whereNotNull('published_at')) as PublishedText[];
      await insertEntries(trx, published);
    },

    async removeStale() {
      const stale = await staleEntries(knex());
      for (let start = 0; start < stale.length; start += BATCH) {
        await knex().transaction((trx) => removeEntries(trx, stale.slice(start, start + BATCH)));
      }
      return stale;
    },

    async addMissing(afterId, throughId) {
      const rows = (await knex()({ a: TABLES.articles })
        .select('a.id', 'a.document_id', 'a.title', 'a.content', 'a.tags')
        .whereNotNull('a.published_at')
        .where('a.id', '>', afterId)
        .where('a.id', '<=', throughId)
        .whereNotExists(knex()({ d: TABLES.searchDocuments }).select(knex().raw('1')).whereRaw('d.document_id = a.document_id'))
        .orderBy('a.id')) as PublishedText[];
      await insertEntries(knex(), rows);
      return rows.map((row) => Number(row.id));
    },

    async settle() {
      // GIN indexes take their entries as they come; nothing to merge.
    },

    filter(query, words, documentColumn) {
      // Either walk finds the matching documents through their rows' word arrays.
      if (!indexComplete(strapi)) {
        for (const word of words) scanFor(query, word, false);
        return query;
      }
      const pattern = (word: string) => `%${escapeLike(word.toLowerCase())}%`;
      const [short, long] = [words.filter((word) => !isLong(word)), words.filter(isLong)];
      if (short.length > 0) {
        // One scan of the array index with every word's dictionary matches: a word that matches
        // no dictionary word makes its condition unsatisfiable, and the scan ends at once.
        const holding = knex()(TABLES.searchDocuments).select('document_id');
        for (const word of short)
          holding.whereRaw(`terms && ARRAY(SELECT term FROM ${TABLES.searchTerms} WHERE term LIKE ? ESCAPE '\\')`, [pattern(word)]);
        query.whereRaw('? IN ?', [documentColumn, holding]);
      }
      for (const word of long) {
        query.whereRaw('? IN ?', [
          documentColumn,
          knex()(TABLES.searchLongTerms)
            .select('document_id')
            .whereRaw("term LIKE ? ESCAPE '\\'", [pattern(word)]),
        ]);
      }
      return query;
    },

    // Its matches come from the documents' rows, which the count would join anyway.
    countAlone: async () => null,
  };
}

export function searchIndex(strapi: Core.Strapi): SearchIndex {
  return {
    isComplete: () => coversThePublishedRows(readDatabase(strapi)),
    lastArticleId: () => lastArticleId(database(strapi)),
    ...(isSqlite(strapi) ? sqliteSearch(strapi) : postgresSearch(strapi)),
  };
}
