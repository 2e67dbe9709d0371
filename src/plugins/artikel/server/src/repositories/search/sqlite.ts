import type { Core } from '@strapi/strapi';
import { TABLES } from '../../constants';
import {
  indexComplete,
  markTrigramsComplete,
  markVocabularyComplete,
  trigramsComplete,
  vocabularyComplete,
} from '../../infrastructure/index-state';
import { truncateWalIfUnread } from '../../infrastructure/bulk-writes';
import { firstRow, INSERT_BATCH_ROWS, limitSql } from '../../infrastructure/row-limits';
import { ARTICLES_BY_PUBLISHED_ID, NEWEST_FIRST } from '../articles/queries';
import { oncePerRequest } from '../../infrastructure/request-memo';
import { database, inTransaction, longReadRows, readDatabase, type Knex } from '../../infrastructure/transactions';
import { yieldToEventLoop } from '../../utils/event-loop';
import { stemsOf } from '../../utils/word-stems';
import { foldCase, ftsAllOf, ftsAnyOf, ftsWordStartsOf, scoredByWordStarts, splitSearchWords } from '../../utils/search-words';
import type { DialectSearch } from './index';
import { COLUMN_WEIGHTS, orderByTextScore, scanFor, staleEntries, textHolds } from './shared';

const FTS_DEFAULT_AUTOMERGE = 4;
// bm25()'s weight of each indexed column, in the table's column order (title, content, tags).
const BM25_WEIGHTS = `${COLUMN_WEIGHTS.title}.0, ${COLUMN_WEIGHTS.content}.0, ${COLUMN_WEIGHTS.tags}.0`;
// "Did you mean": the vocabulary words read for candidates, those holding most of the misspelt word's pieces.
const SUGGESTION_WORDS = 200;
// The pieces of a misspelt word looked up: four characters each (two trigrams in a row, far rarer
// than one), three for a word of three or four characters.
const SUGGESTION_PIECE = 4;
// A build of more entries than this is checkpointed and analysed after (see settle); a repair of a few is not.
const SETTLE_AFTER = 2000;
// The most dictionary words a query word is looked up by in the word index. A word inside more
// (a few letters that many words share) is looked up in the trigram index instead: an FTS5 query
// of thousands of words would read as many lists.
const MOST_WORDS_PER_QUERY_WORD = 64;
// A scratch table on the write connection (temp: not in the database file, not seen by another
// connection): new entries' texts are tokenized in it as the word index tokenizes them, and their
// words read back from its vocabulary table.
const HARVEST = 'artikel_vocabulary_harvest';
const HARVEST_WORDS = 'artikel_vocabulary_harvest_words';
// How the word index and the harvest split a text into words: the same, or a harvested word would not be one the index holds.
const WORD_TOKENIZER = "tokenize = 'unicode61 remove_diacritics 0'";
// The most vocabulary words sharing a stem with a query word that it is looked up by: a stem's
// forms are a handful of words (potret: memotret, pemotretan, potretnya…), never this many.
const MOST_FORMS_PER_QUERY_WORD = 256;
// Vocabulary words one statement of keepStems reads and stems: about 1 to 6 µs each.
const STEMMED_WORDS_PER_BATCH = 500;
// The word index's terms one transaction of the vocabulary's fill reads and adds (see fillVocabulary).
const VOCABULARY_FILL_TERMS = 100;
// The word index's own table of its terms (fts5vocab), on the write connection: what the vocabulary's fill reads.
const INDEX_TERMS = 'artikel_search_words_terms';
// Entries one transaction of the trigram index's backfill adds: about 0.65 ms of tokenizing each
// (an article of 3,300 characters; 6.5 s per 10,000), which holds the process (SQLite's write connection).
const TRIGRAM_BACKFILL_ENTRIES = 25;
// Pages of the word index one step of its compaction writes: at 100,000 articles 369 steps of 3 ms
// (p50; 18 ms p99, 22 at most), 1.9 s in all. FTS5 takes the count as an integer only (see ensure).
const COMPACTION_PAGES = 64;
// Up to this many matches a page's walk asks the index's list of them, made once, instead of
// looking each article it passes up in the index (see filter).
const LISTED_MATCHES = 10_000;

/** The entries that hold every word of a search: an FTS5 index and its query. */
interface Matching {
  table: string;
  match: string;
}

/**
 * A search's matches (see matchingOf), with, for each word, the one vocabulary word it begins
 * where there is exactly one (else null; none where the vocabulary was not asked).
 */
interface WordMatching extends Matching {
  onlyWordsBegun: Array<string | null>;
}

/** A match of a scoring index: its document, title tier (0: every word in the title) and bm25 score (lower first). */
interface ScoredEntry {
  documentId: string;
  tier: number;
  score: number;
}

/** A trigram index query every word matches as a substring, or one of its forms does (see formsOf). */
function trigramMatch(words: string[], forms: string[][]): string {
  return words
    .map((word, index) => (forms[index].length === 0 ? ftsAllOf([word]) : `(${ftsAnyOf([word, ...forms[index]])})`))
    .join(' AND ');
}

/** Index tables from before entries recorded their row get the column; their entries (null) are rebuilt. */
async function addArticleIdColumn(db: Knex): Promise<void> {
  if (await db.schema.hasColumn(TABLES.searchDocuments, 'article_id')) return;
  await db.schema.alterTable(TABLES.searchDocuments, (table) => {
    table.integer('article_id');
  });
}

/** Whether a backfill (a table of one row: the entries with ids in (after_id, through_id] lack something) is pending. */
async function backfillPending(db: Knex, table: string): Promise<boolean> {
  return (await firstRow(db(table).select('through_id'))) !== undefined;
}

/**
 * Copies the texts of the entries with docs ids in (after, through] (through: the last one when
 * null) into an FTS5 table, which tokenizes them: the two search indexes and the harvest.
 */
async function insertEntryTexts(db: Knex, table: string, after: number, through: number | null): Promise<void> {
  await db.raw(
    `INSERT INTO ${table} (rowid, title, content, tags)
     SELECT d.id, COALESCE(a.title, ''), COALESCE(a.content, ''), COALESCE(a.tags, '')
     FROM ${TABLES.searchDocuments} d CROSS JOIN ${TABLES.articles} a ON a.id = d.article_id
     WHERE d.id > ?${through === null ? '' : ' AND d.id <= ?'}`,
    through === null ? [after] : [after, through],
  );
}

/** Creates, on this connection, the scratch table new entries' words are harvested from (see keepHarvestedWords). */
async function prepareHarvest(db: Knex): Promise<void> {
  await db.raw(
    `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${HARVEST} USING fts5(title, content, tags, ${WORD_TOKENIZER}, content = '', detail = none)`,
  );
  await db.raw(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${HARVEST_WORDS} USING fts5vocab(temp, ${HARVEST}, row)`);
}

/** Adds the stems of these vocabulary words (see utils/word-stems.ts): the words a search word's stem finds (see formsOf). */
async function keepStemsOf(db: Knex, words: string[]): Promise<void> {
  const stems = words.flatMap((word) => stemsOf(word).map((stem) => ({ stem, word })));
  for (let start = 0; start < stems.length; start += INSERT_BATCH_ROWS) {
    await db(TABLES.searchStems)
      .insert(stems.slice(start, start + INSERT_BATCH_ROWS))
      .onConflict(['stem', 'word'])
      .ignore();
  }
}

/** Adds the stems of the vocabulary's words with ids above `afterId`, a batch per statement. */
async function keepStems(db: Knex, afterId: number, pause: () => Promise<void> = async () => undefined): Promise<void> {
  // Keyed by the word, not its id: a vocabulary made again (see ensure) finds its words' stems as they were.
  for (let after = afterId; ;) {
    const words = (await db(TABLES.searchVocabulary)
      .select('id', 'word')
      .where('id', '>', after)
      .orderBy('id')
      .limit(STEMMED_WORDS_PER_BATCH)) as Array<{ id: number | string; word: string }>;
    if (words.length === 0) return;
    await keepStemsOf(
      db,
      words.map((row) => String(row.word)),
    );
    after = Number(words[words.length - 1].id);
    await pause();
  }
}

/**
 * Adds the words `wordsSql` selects that the vocabulary lacks, with their trigrams and stems. It
 * only grows: a word no entry holds any more finds nothing. The insert answers the words it added
 * (an ignored one answers nothing): a write's words are then three statements, not six.
 */
async function keepWords(db: Knex, wordsSql: string, bindings: Array<string | number> = []): Promise<void> {
  const added = (await db.raw(
    `INSERT OR IGNORE INTO ${TABLES.searchVocabulary} (word) ${wordsSql} RETURNING id, word`,
    bindings,
  )) as Array<{
    id: number | string;
    word: string;
  }>;
  if (added.length === 0) return;
  // New rows take ids above every earlier one, so they are those from the least id added on.
  const firstId = added.reduce((least, row) => Math.min(least, Number(row.id)), Number.POSITIVE_INFINITY);
  await db.raw(
    `INSERT INTO ${TABLES.searchVocabularyTrigrams} (rowid, word) SELECT id, word FROM ${TABLES.searchVocabulary} WHERE id >= ?`,
    [firstId],
  );
  await keepStemsOf(
    db,
    added.map((row) => String(row.word)),
  );
}

/**
 * Adds the words of the texts in the scratch table that the vocabulary lacks, then empties it: in
 * the transaction that adds their entries, so the vocabulary holds every word of every entry a
 * reader sees.
 */
async function keepHarvestedWords(db: Knex): Promise<void> {
  await keepWords(db, `SELECT term FROM temp.${HARVEST_WORDS}`);
  await db.raw(`INSERT INTO temp.${HARVEST} (${HARVEST}) VALUES ('delete-all')`);
}

/**
 * SQLite: an FTS5 index with the trigram tokenizer, which matches any substring of three or more
 * characters, case-insensitively for all of Unicode. It is contentless (the text already lives in
 * articles); its rowid is the id of the document's row in artikel_search_docs, because published
 * article rows are replaced on every publish. Shorter words are matched by a LIKE scan.
 */
export function sqliteSearch(strapi: Core.Strapi): DialectSearch {
  const knex = () => database(strapi);

  /**
   * The words the index answers and those read by a scan: every word until the index is complete;
   * while the trigram index is filled after a build (see fillTrigrams), also every word only it
   * answers (any but ASCII letters and digits; all of them, without a complete vocabulary).
   */
  const wordsByIndex = (words: string[]): { indexed: string[]; scanned: string[] } => {
    if (!indexComplete(strapi)) return { indexed: [], scanned: words };
    const split = splitSearchWords(words);
    if (trigramsComplete(strapi)) return split;
    const byWordIndex = (word: string): boolean => vocabularyComplete(strapi) && scoredByWordStarts([word]);
    return {
      indexed: split.indexed.filter(byWordIndex),
      scanned: [...split.scanned, ...split.indexed.filter((word) => !byWordIndex(word))],
    };
  };

  /** FTS5 rows are addressed by rowid only, so a document's entry is removed through its docs row. */
  const remove = async (db: Knex, documentIds: string[]): Promise<void> => {
    for (let start = 0; start < documentIds.length; start += INSERT_BATCH_ROWS) {
      const batch = documentIds.slice(start, start + INSERT_BATCH_ROWS);
      const placeholders = batch.map(() => '?').join(', ');
      for (const table of [TABLES.search, TABLES.searchWords]) {
        await db.raw(
          `DELETE FROM ${table} WHERE rowid IN (SELECT id FROM ${TABLES.searchDocuments} WHERE document_id IN (${placeholders}))`,
          batch,
        );
      }
      await db(TABLES.searchDocuments).whereIn('document_id', batch).delete();
    }
  };

  /**
   * Indexes published articles that have no entry yet: the one document given, or those of article
   * ids `afterId` + 1 to `throughId`. Returns the ids of the article rows indexed. A range is read
   * through the index of published ids (INDEXED BY pins the plan to it: with the published_at index
   * SQLite would read every published article for each chunk), so a chunk reads the first page of
   * each published row for its document id and never a draft row, whose published_at lies past its
   * text: reading it walked each draft's overflow pages, half the rows of a build. For a document, the
   * unary + keeps the plan on its document_id index.
   *
   * A build's entries go into the word index (and their words into the vocabulary) at once, and
   * into the trigram index after it, in the background (see fillTrigrams): of a build's time at
   * 100,000 articles the trigram index took 41 s, the word index 4, the vocabulary 6, the tags 5.
   * While that backfill is pending a write's entry waits for it too; the backfill's end is a
   * transaction of its own, after which every entry is added to both.
   */
  const add = async (db: Knex, scope: { documentId: string } | { afterId: number; throughId: number }): Promise<number[]> => {
    const [rows, filter, bindings] =
      'documentId' in scope
        ? [`${TABLES.articles} a`, '+a.published_at IS NOT NULL AND a.document_id = ?', [scope.documentId]]
        : [ARTICLES_BY_PUBLISHED_ID, 'a.published_at IS NOT NULL AND a.id > ? AND a.id <= ?', [scope.afterId, scope.throughId]];
    // The insert answers the entries it added: their articles are returned, their ids bound the backfills' ranges.
    const added = (await db.raw(
      `INSERT INTO ${TABLES.searchDocuments} (document_id, article_id)
       SELECT a.document_id, a.id FROM ${rows}
       WHERE ${filter}
         AND NOT EXISTS (SELECT 1 FROM ${TABLES.searchDocuments} d WHERE d.document_id = a.document_id)
       ORDER BY a.id
       RETURNING id, article_id`,
      bindings,
    )) as Array<{ id: number | string; article_id: number | string }>;
    if (added.length === 0) return [];
    // New rows take ids above every earlier one: the entries before them end just below the least.
    const lastDocsId = added.reduce((least, row) => Math.min(least, Number(row.id)), Number.POSITIVE_INFINITY) - 1;
    const lastAdded = added.reduce((newest, row) => Math.max(newest, Number(row.id)), lastDocsId);
    const trigramsLater = await laterFor(db, TABLES.searchTrigramBackfill, 'afterId' in scope, lastDocsId, lastAdded);
    // Searches only the trigram index answers read the articles until it holds these entries.
    if (trigramsLater) markTrigramsComplete(strapi, false);
    // A build on an incomplete index (a start's, whose searches read the articles until it is done)
    // leaves the vocabulary to its end, from the word index's terms (see fillVocabulary): the
    // harvest tokenizes every text a second time, 6 of a 100,000-article build's 27 s. A write's
    // words are always harvested: that fill reads the terms in order and may be past them.
    const wordsLater =
      'afterId' in scope && (await laterFor(db, TABLES.searchVocabularyBackfill, !indexComplete(strapi), lastDocsId, lastAdded));
    if (wordsLater) markVocabularyComplete(strapi, false);
    const indexes = [...(trigramsLater ? [] : [TABLES.search]), TABLES.searchWords, ...(wordsLater ? [] : [`temp.${HARVEST}`])];
    if (!wordsLater) await prepareHarvest(db);
    for (const table of indexes) await insertEntryTexts(db, table, lastDocsId, null);
    if (!wordsLater) await keepHarvestedWords(db);
    return added.map((row) => Number(row.article_id)).sort((a, b) => a - b);
  };

  /**
   * Whether what the backfill `table` adds later (see backfillPending, fillTrigrams, fillVocabulary) is left out of the entries with
   * ids in (lastDocsId, lastAdded]: while a backfill is pending, for every entry (its range then
   * reaches them), or for a build's (`begin`), which starts one.
   */
  const laterFor = async (db: Knex, table: string, begin: boolean, lastDocsId: number, lastAdded: number): Promise<boolean> => {
    if (await backfillPending(db, table)) {
      await db(table).update({ through_id: lastAdded });
      return true;
    }
    if (!begin) return false;
    await db(table).insert({ after_id: lastDocsId, through_id: lastAdded });
    return true;
  };

  /**
   * The vocabulary's words sharing a stem with each query word (see utils/word-stems.ts), which
   * match it as the words it begins do (contract, fourth round, "Search"), but those holding the
   * word, which it finds by itself (and which counted twice would weigh twice in bm25): none for a
   * word without stems. Up to MOST_FORMS_PER_QUERY_WORD each.
   */
  const formsOf = async (words: string[]): Promise<string[][]> => {
    const forms: string[][] = [];
    for (const word of words) {
      const [folded, stems] = [foldCase(word), stemsOf(foldCase(word))];
      if (stems.length === 0) {
        forms.push([]);
        continue;
      }
      const rows = (await readDatabase(strapi).raw(
        `SELECT DISTINCT word FROM ${TABLES.searchStems} WHERE stem IN (${stems.map(() => '?').join(', ')}) LIMIT ${MOST_FORMS_PER_QUERY_WORD}`,
        [...stems],
      )) as Array<{ word: string }>;
      forms.push(rows.map((row) => String(row.word)).filter((form) => !form.includes(folded)));
    }
    return forms;
  };

  /**
   * Where the entries holding every word are found (words the index answers; see wordsByIndex).
   * A word of ASCII letters and digits lies, in any text, inside one of the text's words as the
   * word index splits it (runs of letters and digits, case folded by the same function as the
   * trigram index's): the entries holding it are those holding any vocabulary word that contains
   * it, and the word index finds them from one list per vocabulary word. The trigram index reads
   * each of the word's trigrams with their positions: counting a word in a quarter of a million
   * articles took 425 to 1,840 ms there, 8 to 15 ms in the word index. The vocabulary's words
   * holding the query word are found through its own trigram index. Other words, and a word
   * inside more than MOST_WORDS_PER_QUERY_WORD vocabulary words: the trigram index; null for such
   * a word while the trigram index is filled (see wordsByIndex), when the words are read by a scan.
   */
  const matchingOf = async (indexed: string[], forms: string[][]): Promise<WordMatching | null> => {
    const trigrams = { table: TABLES.search, match: trigramMatch(indexed, forms), onlyWordsBegun: [] };
    if (!scoredByWordStarts(indexed) || !vocabularyComplete(strapi)) return trigrams;
    const eachWord: string[] = [];
    const onlyWordsBegun: Array<string | null> = [];
    for (const [index, word] of indexed.entries()) {
      const rows = (await readDatabase(strapi).raw(
        `SELECT v.word FROM ${TABLES.searchVocabularyTrigrams} t CROSS JOIN ${TABLES.searchVocabulary} v ON v.id = t.rowid
         WHERE ${TABLES.searchVocabularyTrigrams} MATCH ? LIMIT ${MOST_WORDS_PER_QUERY_WORD + 1}`,
        [ftsAllOf([word])],
      )) as Array<{ word: string }>;
      if (rows.length > MOST_WORDS_PER_QUERY_WORD) return trigramsComplete(strapi) ? trigrams : null;
      // No vocabulary word holds it: the word itself, which no entry holds, matches nothing.
      const holding = rows.length === 0 ? [foldCase(word)] : rows.map((row) => row.word);
      eachWord.push(`(${ftsAnyOf([...new Set([...holding, ...forms[index]])])})`);
      // Every vocabulary word holding it is here (at most MOST_WORDS_PER_QUERY_WORD), so those it begins too.
      const begun = holding.filter((holder) => holder.startsWith(foldCase(word)));
      onlyWordsBegun.push(begun.length === 1 ? begun[0] : null);
    }
    return { table: TABLES.searchWords, match: eachWord.join(' AND '), onlyWordsBegun };
  };

  /** A query's words' forms and matches, found once per request: a list asks for its count and again for its page. */
  const lookedUp = (indexed: string[]): Promise<{ forms: string[][]; matching: WordMatching | null }> =>
    oncePerRequest(strapi, `sqlite-matching:${JSON.stringify(indexed)}`, async () => {
      const forms = await formsOf(indexed);
      return { forms, matching: await matchingOf(indexed, forms) };
    });
  const matchingOfWords = async (indexed: string[]): Promise<WordMatching | null> => (await lookedUp(indexed)).matching;

  /** See SearchIndex.countAlone. */
  const countAlone = async (words: string[], upTo: number | null): Promise<number | null> => {
    const { indexed, scanned } = wordsByIndex(words);
    if (indexed.length === 0 || scanned.length > 0) return null;
    // A complete index holds one entry per published article, kept so by every write's own
    // transaction: its matches are the articles. 3.2 ms instead of 15.5 ms for a word in two
    // thirds of 10,000 articles, whose entries the join would look up one by one.
    const matching = await matchingOfWords(indexed);
    if (matching === null) return null;
    const { table, match } = matching;
    const row = (await longReadRows(
      strapi,
      upTo === null
        ? readDatabase(strapi).raw(`SELECT count(*) AS total FROM ${table} WHERE ${table} MATCH ?`, [match])
        : readDatabase(strapi).raw(`SELECT count(*) AS total FROM (SELECT 1 FROM ${table} WHERE ${table} MATCH ? LIMIT ?)`, [match, upTo]),
    )) as Array<{ total: number }>;
    return Number(row[0]?.total ?? 0);
  };

  /**
   * The index that scores a query's words for the relevance order, and its query. The word index
   * (unicode61): one word's occurrences are one term's, where the trigram index reads every
   * trigram of the word and their positions (bm25 of a word in 95,000 of 100,000 articles: about
   * 55 instead of 150 ms; its matches counted: 3 instead of 70 ms). It finds an article by the
   * beginning of one of its words, so it holds the matches (every word a substring) where the word
   * is a word or begins one, never one that is not a match; those holding a word only inside a
   * longer one ("shop" in "workshop") are not scored and come after, newest first. Words holding
   * anything but ASCII letters and digits are scored by the trigram index, which holds every match.
   */
  const scoringOf = (indexed: string[], forms: string[][], onlyWordsBegun: Array<string | null> = []): Matching => {
    const words = ftsWordStartsOf(indexed, forms, onlyWordsBegun);
    if (words !== null) return { table: TABLES.searchWords, match: words };
    return { table: TABLES.search, match: trigramMatch(indexed, forms) };
  };

  /**
   * The FTS5 query of one title tier of a scoring query's matches (see rank()'s order): 0, those
   * with every word in their title; 1, the others. bm25() scores a row by the occurrences of the
   * phrases it matched, and a phrase on the right of a NOT matches nothing in the rows it lets
   * through: each tier is scored exactly as `match` alone scores its rows, while only the tier's
   * rows are scored. Tier 0 of a word in 95,000 of 100,000 articles (its 868 rows): 25 instead of
   * 57 ms, where every match was scored and then sorted by its tier (the 50 sampled words: 216
   * instead of 434 ms, the same rows and scores for each). Only for the word index, whose phrases
   * are single words: a trigram phrase can fail a row that holds each of its trigrams apart, and
   * FTS5 then drops the occurrences its AND's other phrases had found in a later row, unless the
   * AND is the whole query (SQLite 3.54: `kafé potret` lost `memotret`'s under the NOT).
   */
  const tierMatch = (match: string, tier: 0 | 1): string =>
    tier === 0 ? `(${match}) NOT ((${match}) NOT title : (${match}))` : `(${match}) NOT title : (${match})`;

  /**
   * The first `count` matches of a title tier (`null`: of both, tier 0 first, in one query) in
   * rank()'s order, equal ones newest first. A bounded sort: every match of the tier is scored,
   * `count` kept, and only their articles read, for the newest-first order of equal ones. Equal
   * ones across the `count`'s end are not all here: see tierThrough.
   */
  const bestOfTier = async ({ table, match }: Matching, tier: 0 | 1 | null, count: number): Promise<ScoredEntry[]> => {
    const scored =
      tier === null
        ? {
            sql: `SELECT rowid AS id, bm25(${table}, ${BM25_WEIGHTS}) AS score,
                    CASE WHEN rowid IN (SELECT rowid FROM ${table} WHERE ${table} MATCH ?) THEN 0 ELSE 1 END AS tier
                  FROM ${table} WHERE ${table} MATCH ? ORDER BY tier, score ${limitSql(count, 0)}`,
            bindings: [`title : (${match})`, match],
          }
        : {
            sql: `SELECT rowid AS id, bm25(${table}, ${BM25_WEIGHTS}) AS score, ${tier} AS tier
                  FROM ${table} WHERE ${table} MATCH ? ORDER BY score ${limitSql(count, 0)}`,
            bindings: [tierMatch(match, tier)],
          };
    const rows = (await longReadRows(
      strapi,
      readDatabase(strapi).raw(
        `SELECT s.tier, s.score, d.document_id FROM (${scored.sql}) s
         CROSS JOIN ${TABLES.searchDocuments} d ON d.id = s.id CROSS JOIN ${TABLES.articles} a ON a.id = d.article_id
         WHERE a.published_at IS NOT NULL
         ORDER BY s.tier, s.score, ${NEWEST_FIRST}`,
        scored.bindings,
      ),
    )) as Array<{ document_id: string; score: number; tier: number }>;
    return rows.map((row) => ({ documentId: String(row.document_id), score: Number(row.score), tier: Number(row.tier) }));
  };

  /**
   * The first `through` matches of a title tier (or of both) in order, or all of them where there
   * are fewer. The order is right once a match past the `through`th differs from it (every match
   * equal to it is then among them, newest first) or every match is read. Equal scores are common
   * (articles of one length with one count of the word: ten of a word's 34,000 matches at a million
   * sat across page 1's end), so 16 more are read, and 8 times more each time that is not enough
   * (each time the tier is scored again; materializing every match and joining those up to the
   * page's end took 4 times as long).
   */
  const tierThrough = async (scoring: Matching, tier: 0 | 1 | null, through: number): Promise<ScoredEntry[]> => {
    for (let count = through + 16; ; count *= 8) {
      const entries = await bestOfTier(scoring, tier, count);
      const last = entries[through - 1];
      const differs = (entry: ScoredEntry) => entry.tier !== last.tier || entry.score !== last.score;
      if (last === undefined || entries.length < count || entries.slice(through).some(differs)) return entries.slice(0, through);
    }
  };

  /** The first `through` scored matches, tier 0 first: tier by tier from the word index (tier 1 only where tier 0 ends before `through`). */
  const scoredThrough = async (scoring: Matching, through: number): Promise<ScoredEntry[]> => {
    if (scoring.table !== TABLES.searchWords) return tierThrough(scoring, null, through);
    const titled = await tierThrough(scoring, 0, through);
    return titled.length < through ? [...titled, ...(await tierThrough(scoring, 1, through - titled.length))] : titled;
  };

  /**
   * A page of the matches the word starts do not find, newest first: read from every match (see
   * matchingOf; CROSS JOIN: the entries first, not a walk of every article newest first).
   */
  const unscoredNewest = async (matching: Matching, wordMatch: string, limit: number, offset: number): Promise<string[]> => {
    const rows = (await longReadRows(
      strapi,
      readDatabase(strapi).raw(
        `SELECT d.document_id FROM ${TABLES.searchDocuments} d CROSS JOIN ${TABLES.articles} a ON a.id = d.article_id
         WHERE d.id IN (SELECT rowid FROM ${matching.table} WHERE ${matching.table} MATCH ?)
           AND d.id NOT IN (SELECT rowid FROM ${TABLES.searchWords} WHERE ${TABLES.searchWords} MATCH ?)
           AND a.published_at IS NOT NULL
         ORDER BY ${NEWEST_FIRST} ${limitSql(limit, offset)}`,
        [matching.match, wordMatch],
      ),
    )) as Array<{ document_id: string }>;
    return rows.map((row) => String(row.document_id));
  };

  return {
    async ensure({ empty }) {
      // An index from before the word index is built again (in the background, as after an
      // import): the word index's entries are made with the trigram index's, from the same rows.
      const hasEntries = await knex().schema.hasTable(TABLES.searchDocuments);
      const withoutWords = hasEntries && !(await knex().schema.hasTable(TABLES.searchWords));
      if (withoutWords) strapi.log.info('artikel: search index: adding the word index (relevance order); the index is built again');
      if (empty || withoutWords) {
        for (const table of [
          TABLES.search,
          TABLES.searchWords,
          TABLES.searchVocabulary,
          TABLES.searchVocabularyTrigrams,
          TABLES.searchStems,
          TABLES.searchVocabularyBackfill,
          TABLES.searchTrigramBackfill,
          TABLES.searchDocuments,
        ])
          await knex().schema.dropTableIfExists(table);
      }
      // An index from before the vocabulary keeps its entries: their words are added in the
      // background (see fillVocabulary), new entries' as they are made.
      const withoutVocabulary = hasEntries && !(empty || withoutWords) && !(await knex().schema.hasTable(TABLES.searchVocabulary));
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
      // Diacritics kept, as the trigram index keeps them: both fold case alike, so an article the
      // word index finds by a word's beginning holds the word for the trigram index too.
      await knex().raw(
        `CREATE VIRTUAL TABLE IF NOT EXISTS ${TABLES.searchWords} USING fts5(title, content, tags, ${WORD_TOKENIZER}, content = '', contentless_delete = 1)`,
      );
      await knex().raw(`CREATE TABLE IF NOT EXISTS ${TABLES.searchVocabulary} (id INTEGER PRIMARY KEY, word TEXT NOT NULL UNIQUE)`);
      await knex().raw(
        `CREATE VIRTUAL TABLE IF NOT EXISTS ${TABLES.searchVocabularyTrigrams} USING fts5(word, tokenize = 'trigram', content = '')`,
      );
      // A vocabulary from before the stems gets its words' stems here, a batch at a time (a few
      // thousand words even at a million articles: their stems take milliseconds).
      const withoutStems = !(await knex().schema.hasTable(TABLES.searchStems));
      await knex().raw(
        `CREATE TABLE IF NOT EXISTS ${TABLES.searchStems} (stem TEXT NOT NULL, word TEXT NOT NULL, PRIMARY KEY (stem, word)) WITHOUT ROWID`,
      );
      if (withoutStems) await keepStems(knex(), 0, yieldToEventLoop);
      await knex().raw(
        `CREATE TABLE IF NOT EXISTS ${TABLES.searchVocabularyBackfill} (after_id INTEGER NOT NULL, through_id INTEGER NOT NULL)`,
      );
      await knex().raw(
        `CREATE TABLE IF NOT EXISTS ${TABLES.searchTrigramBackfill} (after_id INTEGER NOT NULL, through_id INTEGER NOT NULL)`,
      );
      if (withoutVocabulary) {
        strapi.log.info("artikel: search index: adding the vocabulary; the existing entries' words are added in the background");
        await knex().raw(
          `INSERT INTO ${TABLES.searchVocabularyBackfill} (after_id, through_id) SELECT 0, COALESCE(max(id), 0) FROM ${TABLES.searchDocuments}`,
        );
      }
      markVocabularyComplete(strapi, !(await backfillPending(knex(), TABLES.searchVocabularyBackfill)));
      markTrigramsComplete(strapi, !(await backfillPending(knex(), TABLES.searchTrigramBackfill)));
      // Earlier versions paused FTS5's automatic merging during a build; written on every boot, so a
      // build of theirs cut off by a stop or a crash does not leave it paused. (FTS5 takes the value
      // as an integer only, and better-sqlite3 binds a number as a real: it is written into the SQL.)
      await knex().raw(`INSERT INTO ${TABLES.search} (${TABLES.search}, rank) VALUES ('automerge', ${FTS_DEFAULT_AUTOMERGE})`);
    },

    async fillVocabulary(stopped) {
      // The words of entries made without the harvest (an index from before the vocabulary, a
      // start's build): every term of the word index, in order, a few per transaction; entries
      // added meanwhile bring their own (see add). At 100,000 articles the 2,071 terms took 0.55 s
      // to read (the whole index's lists), the harvest of the same entries 6 s.
      if (!(await backfillPending(knex(), TABLES.searchVocabularyBackfill))) return true;
      for (let after = ''; !stopped();) {
        const last = await inTransaction(strapi, async ({ trx }) => {
          await trx.raw(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${INDEX_TERMS} USING fts5vocab(main, ${TABLES.searchWords}, row)`);
          const terms = (await trx.raw(`SELECT term FROM temp.${INDEX_TERMS} WHERE term > ? ORDER BY term LIMIT ${VOCABULARY_FILL_TERMS}`, [
            after,
          ])) as Array<{ term: string }>;
          if (terms.length === 0) {
            await trx(TABLES.searchVocabularyBackfill).delete();
            return null;
          }
          await keepWords(trx, 'SELECT value FROM json_each(?)', [JSON.stringify(terms.map((row) => row.term))]);
          return terms[terms.length - 1].term;
        });
        if (last === null) {
          markVocabularyComplete(strapi, true);
          return true;
        }
        after = last;
        await yieldToEventLoop();
      }
      return false;
    },

    async fillTrigrams(stopped) {
      // The entries a build added to the word index only (see add), a few per transaction. The
      // range's end is read again each time: a write's entry made meanwhile widened it.
      while (!stopped()) {
        const filled = await inTransaction(strapi, async ({ trx }) => {
          const pending = (await firstRow(trx(TABLES.searchTrigramBackfill).select('after_id', 'through_id'))) as
            { after_id: number; through_id: number } | undefined;
          if (pending === undefined) return true;
          const [after, through] = [Number(pending.after_id), Number(pending.through_id)];
          const next = Math.min(after + TRIGRAM_BACKFILL_ENTRIES, through);
          await insertEntryTexts(trx, TABLES.search, after, next);
          if (next >= through) await trx(TABLES.searchTrigramBackfill).delete();
          else await trx(TABLES.searchTrigramBackfill).update({ after_id: next });
          return next >= through;
        });
        if (filled) {
          markTrigramsComplete(strapi, true);
          return true;
        }
        await yieldToEventLoop();
      }
      return false;
    },

    async compact(stopped) {
      // FTS5 writes each write's and each build chunk's entries as a segment of their own and merges
      // a few at a time; a lookup seeks in every segment. A negative 'merge' merges every segment
      // into one, a few pages per statement, and writes (almost) nothing once there is one. Page 1
      // of a word in 4 % of 100,000 articles, walked newest first: 28 to 45 ms over 12,000 index
      // rows of segments, 1.1 to 3.9 ms merged.
      while (!stopped()) {
        const merged = await inTransaction(strapi, async ({ trx }) => {
          const changes = async () => Number(((await trx.raw('SELECT total_changes() AS n')) as Array<{ n: number }>)[0].n);
          const before = await changes();
          await trx.raw(`INSERT INTO ${TABLES.searchWords} (${TABLES.searchWords}, rank) VALUES ('merge', -${COMPACTION_PAGES})`);
          // FTS5's own measure of whether the command did any work.
          return (await changes()) - before >= 2;
        });
        if (!merged) return true;
        await yieldToEventLoop();
      }
      return false;
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
      await truncateWalIfUnread(strapi);
      // Refreshes planner statistics that an earlier ANALYZE took while the index was empty, if any;
      // each table is sampled, not read whole, so the statement stays short at a million articles.
      await knex().raw('PRAGMA analysis_limit = 1000');
      await knex().raw('PRAGMA optimize');
    },

    async filter(query, words, documentColumn, { forPage, matching: matchingCount }) {
      const { indexed, scanned } = wordsByIndex(words);
      const matching = indexed.length > 0 ? await matchingOfWords(indexed) : null;
      // FTS5 MATCH has no query-builder form.
      if (matching !== null) {
        const { table, match } = matching;
        const matches = `SELECT rowid FROM ${table} WHERE ${table} MATCH ?`;
        if (forPage && scanned.length === 0 && matchingCount !== undefined && matchingCount <= LISTED_MATCHES) {
          // A walk whose matches are few asks their list, made once (SQLite keeps an IN list's
          // rows in a temporary index): at 100,000 articles, page 1 of a word in 3,400 to 10,000
          // took 0.4 to 0.9 ms, where a lookup per article took 0.3 to 10.6 ms (the walk's length
          // depends on how recent the matches are, a lookup on parsing the match each time).
          query.whereRaw(`(SELECT d.id FROM ${TABLES.searchDocuments} d WHERE d.document_id = ?) IN (${matches})`, [documentColumn, match]);
        } else if (forPage) {
          // Each article the page walks is looked up in the index by its entry's id: the walk
          // stops after a page, so a common word's matches are neither listed nor mapped to their
          // documents. Page 1 of a word in a quarter of a million articles: 8 to 30 ms; listed
          // first (IN), the matches took as long as their count.
          query.whereExists(
            knex()
              .select(knex().raw('1'))
              .from({ d: TABLES.searchDocuments })
              .where('d.document_id', documentColumn)
              .whereRaw(`EXISTS (SELECT 1 FROM ${table} s WHERE ${table} MATCH ? AND s.rowid = d.id)`, [match]),
          );
        } else {
          query.whereRaw('? IN ?', [
            documentColumn,
            knex()
              .select('d.document_id')
              .from({ s: table })
              .join({ d: TABLES.searchDocuments }, 'd.id', 's.rowid')
              .whereRaw(`${table} MATCH ?`, [match]),
          ]);
        }
      }
      for (const word of matching === null ? words : scanned) scanFor(query, word, true);
    },

    async rank(query, words) {
      const { indexed, scanned } = wordsByIndex(words);
      if (indexed.length === 0) {
        orderByTextScore(query, words, true);
        return;
      }
      // From an index alone, no article's text read: FTS5's bm25() with the title weighted above
      // the tags above the content (the occurrences of each word against the column's length and
      // how rare the word is), and whether every word is in the title (a column filter); a match
      // the scoring index does not hold comes after those it does (see scoringOf). A word under
      // three characters is looked for in the title's text.
      // The forms and matches filter() found for this request's words.
      const { forms, matching } = await lookedUp(indexed);
      const { table, match } = scoringOf(indexed, forms, matching?.onlyWordsBegun);
      const matches = (ftsQuery: string) =>
        knex()
          .select('d.document_id')
          .from({ d: TABLES.searchDocuments })
          .whereRaw(`d.id IN (SELECT rowid FROM ${table} WHERE ${table} MATCH ?)`, [ftsQuery]);
      const inTitle = [
        knex().raw('a.document_id IN ?', [matches(`title : (${match})`)]),
        ...scanned.map((word) => {
          const holds = textHolds(`COALESCE(a.title, '')`, foldCase(word), true);
          return knex().raw(holds.sql, holds.bindings);
        }),
      ];
      query
        .leftJoin(
          knex().raw(
            `(SELECT d.document_id AS document_id, s.score AS score FROM (SELECT rowid AS id, bm25(${table}, ${BM25_WEIGHTS}) AS score FROM ${table} WHERE ${table} MATCH ?) s JOIN ${TABLES.searchDocuments} d ON d.id = s.id) AS r`,
            [match],
          ),
          'r.document_id',
          'a.document_id',
        )
        .orderByRaw(`CASE WHEN ${inTitle.map(() => '?').join(' AND ')} THEN 0 ELSE 1 END`, inTitle)
        .orderByRaw('COALESCE(r.score, 0) ASC');
    },

    async rankedAlone(words, limit, offset) {
      const { indexed, scanned } = wordsByIndex(words);
      if (indexed.length === 0 || scanned.length > 0) return null;
      const { forms, matching } = await lookedUp(indexed);
      if (matching === null) return null;
      const scoring = scoringOf(indexed, forms, matching.onlyWordsBegun);
      const through = offset + limit;
      const scored = await scoredThrough(scoring, through);
      const page = scored.slice(offset, through).map((entry) => entry.documentId);
      if (scoring.table === TABLES.search || page.length === limit) return page;
      // Past the scored matches (all of them read here, fewer than offset + limit): those holding
      // a word only inside a longer one, newest first.
      const unscored = await unscoredNewest(matching, scoring.match, limit - page.length, Math.max(0, offset - scored.length));
      return [...page, ...unscored];
    },

    async similarWords(word, limit) {
      const folded = foldCase(word);
      const characters = [...folded];
      if (characters.length < 3 || !indexComplete(strapi) || !vocabularyComplete(strapi)) return [];
      // The vocabulary holds every word of the word index, with a trigram index of its own: the
      // words holding most of the misspelt word's pieces (bm25 ranks those holding more, rarer
      // ones first) are the candidates, ordered by how many they hold. No article is read, and
      // the trigram index of the articles, filled last after a build, is not needed.
      const size = characters.length <= SUGGESTION_PIECE ? 3 : SUGGESTION_PIECE;
      const pieces = new Set<string>();
      for (let start = 0; start + size <= characters.length; start += 1) pieces.add(characters.slice(start, start + size).join(''));
      const rows = (await longReadRows(
        strapi,
        readDatabase(strapi).raw(
          `SELECT v.word FROM (SELECT rowid AS id FROM ${TABLES.searchVocabularyTrigrams} WHERE ${TABLES.searchVocabularyTrigrams} MATCH ?
             ORDER BY rank LIMIT ${SUGGESTION_WORDS}) t CROSS JOIN ${TABLES.searchVocabulary} v ON v.id = t.id`,
          [ftsAnyOf([...pieces])],
        ),
      )) as Array<{ word: string }>;
      const candidates = new Map<string, number>();
      for (const { word: candidate } of rows) {
        if (candidate === folded || candidates.has(candidate)) continue;
        let shared = 0;
        for (const piece of pieces) if (candidate.includes(piece)) shared += 1;
        if (shared > 0) candidates.set(candidate, shared);
      }
      return [...candidates]
        .sort((first, second) => second[1] - first[1] || first[0].localeCompare(second[0]))
        .slice(0, limit)
        .map(([candidate]) => candidate);
    },

    countAlone,
    // A walk asks the index about each article it passes, as a read of the matches asks it about each match.
    walkTestCost: 1,
  };
}
