import type { Core } from '@strapi/strapi';
import { TABLES } from '../../constants';
import { indexComplete } from '../../infrastructure/index-state';
import { INSERT_BATCH_ROWS } from '../../infrastructure/row-limits';
import { oncePerRequest } from '../../infrastructure/request-memo';
import { database, inAnyTransaction, longReadRows, readDatabase, type Knex } from '../../infrastructure/transactions';
import { yieldToEventLoop } from '../../utils/event-loop';
import { foldCase, scoredByWordStarts, searchTerms } from '../../utils/search-words';
import { shareStem, stemsOf } from '../../utils/word-stems';
import { NEWEST_FIRST } from '../articles/queries';
import { escapeLike } from '../like-patterns';
import type { DialectSearch } from './index';
import { COLUMN_WEIGHTS, lettersAndDigits, orderByTextScore, scanFor, staleEntries } from './shared';
import { detached } from '../../infrastructure/detached-work';

/** PostgreSQL: longest word (in characters, up to 4 bytes each) kept in the dictionary; btree keys end near 2,700 bytes. */
const LONG_WORD = 200;
// A surrogate: half of a character outside the BMP (or a lone one). A text without any has one character per UTF-16 unit.
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Where each character (code point, as [...word] splits it) of a word starts; null when each
 * UTF-16 unit is one (no surrogate), which is nearly every word and needs no list.
 */
function characterStarts(word: string): number[] | null {
  if (!SURROGATE.test(word)) return null;
  const starts: number[] = [];
  for (let at = 0; at < word.length; at += 1) {
    const unit = word.charCodeAt(at);
    // The low half of a surrogate pair does not start a character; a lone one does.
    const pairEnd = unit >= 0xdc00 && unit <= 0xdfff && at > 0 && word.charCodeAt(at - 1) >= 0xd800 && word.charCodeAt(at - 1) <= 0xdbff;
    if (!pairEnd) starts.push(at);
  }
  return starts;
}

const characterCount = (word: string): number => characterStarts(word)?.length ?? word.length;

// A word of more than LONG_WORD UTF-16 units may be long; of more than twice that, it is (a character is at most two).
const isLong = (word: string): boolean => word.length > LONG_WORD && (word.length > 2 * LONG_WORD || characterCount(word) > LONG_WORD);

/**
 * A long word's overlapping pieces: every substring of up to LONG_WORD + 1 characters lies in one.
 * Cut by the characters' starts: splitting a text-long "word" into a string per character (a
 * content of <div>×60,000 is one word of 180,000) held the event loop 100 ms.
 */
function piecesOf(word: string): string[] {
  const starts = characterStarts(word);
  const count = starts?.length ?? word.length;
  const startOf = (character: number): number => (character >= count ? word.length : (starts?.[character] ?? character));
  const pieces: string[] = [];
  for (let start = 0; ; start += LONG_WORD) {
    pieces.push(word.slice(startOf(start), startOf(start + 2 * LONG_WORD)));
    if (start + 2 * LONG_WORD >= count) return pieces;
  }
}

// The weights of tsvector's labels, in ts_rank_cd's order {D, C, B, A}: content (D), tags (B), title (A), as COLUMN_WEIGHTS.
const RANK_WEIGHTS = `'{${COLUMN_WEIGHTS.content / COLUMN_WEIGHTS.title}, 0, ${COLUMN_WEIGHTS.tags / COLUMN_WEIGHTS.title}, 1}'::float4[]`;
// The content's characters the ranking's tsvector is made of: a tsvector holds at most 1 MB.
const RANKED_CONTENT_CHARACTERS = 200_000;
// The dictionary's terms that hold a word (LIKE, through the dictionary's trigram index) or share
// one of its stems, with termsOfWordBindings.
const TERMS_OF_WORD = `SELECT term FROM ${TABLES.searchTerms} WHERE term LIKE ? ESCAPE '\\' UNION SELECT term FROM ${TABLES.searchStems} WHERE stem = ANY(?::text[])`;
/** A LIKE pattern of the texts that hold the word (lower-cased, as the dictionary is). */
const holdingPattern = (word: string): string => `%${escapeLike(word.toLowerCase())}%`;
const termsOfWordBindings = (word: string): [string, string[]] => [holdingPattern(word), [...stemsOf(foldCase(word))]];
// An entry holds one of the terms bound (text[]): the array index's question.
const HOLDS_ONE_OF = 'terms && ?::text[]';
/**
 * An entry's terms are also kept as a tsvector of them as they are (array_to_tsvector: no parsing,
 * no stemming), whose lexemes are sorted: a page's walk, which tests each article it passes, looks
 * each of the query word's terms up in it, where the array's test compares every term of the
 * article with each of them (at 10,000 articles about 7 instead of 30 µs an article: page 1 of a
 * word in 1,248 of them took 1.0 instead of 3.9 ms). Only the array is indexed: it answers the
 * counts and the pages read through their matches, and the words too many to send (see
 * MOST_SENT_TERMS).
 * A tsvector holds at most 1 MB (each lexeme's bytes and 4 more), and a tsquery's lexemes at most
 * 1 MB (each one's bytes and 1 more): an entry whose terms would not fit has no tsvector, and a
 * word whose terms would not fit a tsquery is tested against the array.
 */
const MOST_LEXEME_BYTES = 1_000_000;
const lexemeBytes = (terms: string[], each: number): number => {
  let bytes = 0;
  for (const term of terms) bytes += Buffer.byteLength(term) + each;
  return bytes;
};
/** A tsquery matching any of these lexemes as they are: each quoted, its backslashes and quotes escaped. */
const anyOfLexemes = (terms: string[]): string => terms.map((term) => `'${term.replace(/[\\']/g, '\\$&')}'`).join(' | ');
/** A walk's test that an entry holds one of these terms: its tsvector's, or its array's where either has no room for them. */
const walkTestOf = (terms: string[]): { sql: string; bindings: Array<string | string[]> } =>
  terms.length > 0 && lexemeBytes(terms, 1) <= MOST_LEXEME_BYTES
    ? { sql: '(words @@ ?::tsquery OR (words IS NULL AND terms && ?::text[]))', bindings: [anyOfLexemes(terms), terms] }
    : { sql: HOLDS_ONE_OF, bindings: [terms] };
// Most terms of one word sent back with the query as values (see filter).
const MOST_SENT_TERMS = 1_000;
/** A word's terms as found with a LIMIT of MOST_SENT_TERMS + 1: null when there are too many to send. */
const sentTerms = (terms: string[]): string[] | null => (terms.length > MOST_SENT_TERMS ? null : terms);

/**
 * The frequent terms are counted again at most every RECOUNT_INTERVAL_MS per instance, and at
 * most once per RECOUNT_SHARE times the last count's duration: a count reads every entry's array
 * (3.6 s at 100,000 articles, 10 s under load), and a word whose matches come from several terms,
 * none of them frequent by itself, keeps asking for one that cannot help it.
 */
const RECOUNT_INTERVAL_MS = 10 * 60_000;
const RECOUNT_SHARE = 100;
/** An advisory lock's key: one instance at a time counts the frequent terms. */
const FREQUENT_TERMS_LOCK = 0x61727466;
/** An entry's words for ts_rank_cd: the title labelled A, the tags B, the content D ('simple': lower-cased, never stemmed). */
const WEIGHTED_WORDS = `setweight(to_tsvector('simple', ?), 'A') || setweight(to_tsvector('simple', ?), 'B') || setweight(to_tsvector('simple', left(?, ${RANKED_CONTENT_CHARACTERS})), 'D')`;

/**
 * The published articles' titles as words ('simple': lower-cased, never stemmed), as the title's
 * part of each entry's ranking tsvector holds them (label A): an expression index, so that the
 * articles with every word in their title (the relevance order's first tier) are found without
 * reading every match's ranking tsvector (see rankedAlone).
 */
const titleWords = (column: string): string => `to_tsvector('simple', COALESCE(${column}, ''))`;
const TITLE_WORDS_INDEX = 'artikel_articles_title_words';
/** rank()'s score of an entry (alias r): the sum over the words of ts_rank_cd, each word with its forms (see formsOf). */
const rankScore = (words: string[], forms: string[][]): { sql: string; bindings: string[] } => ({
  sql: `(${words.map(() => `COALESCE(ts_rank_cd(${RANK_WEIGHTS}, r.weighted, to_tsquery('simple', ?)), 0)`).join(' + ')})`,
  bindings: words.map((word, index) => wordStartsQuery([word], [forms[index]])),
});

// The most dictionary terms sharing a stem with a query word that the relevance order scores it by (see formsOf).
const MOST_FORMS_PER_QUERY_WORD = 256;
// Dictionary terms one statement of keepStems reads and stems.
const STEMMED_TERMS_PER_BATCH = 500;

/**
 * A tsquery every word begins a word of, or is one of its forms (label: only in the title): see
 * scoredByWordStarts, whose words need no quoting, and formsOf, whose forms are letters and digits.
 */
const wordStartsQuery = (words: string[], forms: string[][], label = ''): string =>
  words
    .map((word, index) => [
      `${word.toLowerCase()}:*${label}`,
      ...(forms[index] ?? []).map((form) => `${form}${label === '' ? '' : `:${label}`}`),
    ])
    .map((alternatives) => (alternatives.length === 1 ? alternatives[0] : `(${alternatives.join(' | ')})`))
    .join(' & ');

/** The stem rows of dictionary terms: each stem of each run of letters and digits in the term (see utils/word-stems.ts). */
const stemRowsOf = (terms: string[]): Array<{ stem: string; term: string }> =>
  terms.flatMap((term) => [...new Set(lettersAndDigits(term).flatMap((word) => stemsOf(word)))].map((stem) => ({ stem, term })));

interface PublishedText {
  id: number;
  document_id: string;
  title: string | null;
  content: string | null;
  tags: string | null;
}

/**
 * PostgreSQL: a word index. Each published article's row holds its distinct words (title, content
 * and tags lower-cased by the plugin with JavaScript's Unicode case mapping, so the answer does not
 * depend on the database's locale, split at white space) in an array with a GIN index (and as a
 * tsvector for a page's walk: see MOST_LEXEME_BYTES), and a dictionary holds every word with a
 * pg_trgm index. A query word is looked up in the dictionary (LIKE '%word%' over short words: cheap
 * even where it must recheck) and the articles holding any of the words found come from the array
 * index, which answers overlap exactly, so no article's text is read. Same answers as LIKE over the
 * text: a query word has no white space, so it is a substring of the text exactly when it is a
 * substring of one of its words.
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
export function postgresSearch(strapi: Core.Strapi): DialectSearch {
  const knex = () => database(strapi);

  const insertEntries = async (db: Knex, rows: PublishedText[]): Promise<void> => {
    for (let start = 0; start < rows.length; start += INSERT_BATCH_ROWS) {
      const entries = rows.slice(start, start + INSERT_BATCH_ROWS).map((row) => {
        const terms = searchTerms(row);
        const longTerms = terms.filter(isLong);
        const indexed = [...new Set([...terms.filter((term) => !isLong(term)), ...longTerms.flatMap(piecesOf)])];
        return {
          document_id: row.document_id,
          article_id: row.id,
          terms: indexed,
          words: lexemeBytes(indexed, 4) <= MOST_LEXEME_BYTES ? db.raw('array_to_tsvector(?::text[])', [indexed]) : null,
          weighted: db.raw(WEIGHTED_WORDS, [row.title ?? '', row.tags ?? '', row.content ?? '']),
          longTerms,
        };
      });
      // Sorted, so that two transactions adding the same new words take their row locks in one order.
      const words = [...new Set(entries.flatMap((entry) => entry.terms))].sort();
      // The terms new to the dictionary come back, and their stems are added with them.
      const added = (await db.raw(
        `INSERT INTO ${TABLES.searchTerms} (term) SELECT term FROM unnest(?::text[]) WITH ORDINALITY AS t(term, n) ORDER BY n ON CONFLICT DO NOTHING RETURNING term`,
        [words],
      )) as { rows: Array<{ term: string }> };
      await insertStems(db, stemRowsOf(added.rows.map((row) => String(row.term)).filter((term) => !isLong(term))));
      // An entry another transaction wrote meanwhile for the same article (two writes of it at
      // once: the later one's delete did not see it) is replaced, and counts as removed.
      const upsert = db(TABLES.searchDocuments)
        .insert(entries.map(({ longTerms: _longTerms, ...entry }) => entry))
        .onConflict('document_id')
        .merge()
        .toSQL();
      await db.raw(
        `WITH written AS (${upsert.sql} RETURNING (xmax::text <> '0') AS replaced) INSERT INTO ${TABLES.searchRemovals} (removed) SELECT 1 FROM written WHERE replaced`,
        upsert.bindings,
      );
      const longTerms = entries.flatMap((entry) => entry.longTerms.map((term) => ({ document_id: entry.document_id, term })));
      if (longTerms.length > 0) await db(TABLES.searchLongTerms).insert(longTerms);
    }
  };

  const insertStems = async (db: Knex, rows: Array<{ stem: string; term: string }>): Promise<void> => {
    const sorted = rows.sort((first, second) => (first.stem + first.term < second.stem + second.term ? -1 : 1));
    for (let start = 0; start < sorted.length; start += INSERT_BATCH_ROWS) {
      await db(TABLES.searchStems)
        .insert(sorted.slice(start, start + INSERT_BATCH_ROWS))
        .onConflict(['stem', 'term'])
        .ignore();
    }
  };

  /** Adds the stems of every dictionary term, a batch per statement: a dictionary from before the stems. */
  const keepStems = async (db: Knex): Promise<void> => {
    for (let after = ''; ;) {
      const terms = (await db(TABLES.searchTerms)
        .select('term')
        .where('term', '>', after)
        .orderBy('term')
        .limit(STEMMED_TERMS_PER_BATCH)) as Array<{ term: string }>;
      if (terms.length === 0) return;
      await insertStems(db, stemRowsOf(terms.map((row) => String(row.term)).filter((term) => !isLong(term))));
      after = String(terms[terms.length - 1].term);
      await yieldToEventLoop();
    }
  };

  /**
   * The dictionary's terms sharing a stem with each query word, as the words of letters and digits
   * in them that do ("pemotretan," gives pemotretan): a word's forms, which the relevance order
   * scores as the word. Up to MOST_FORMS_PER_QUERY_WORD terms each.
   */
  const findForms = async (words: string[]): Promise<string[][]> => {
    const forms: string[][] = [];
    for (const word of words) {
      const stems = stemsOf(foldCase(word));
      if (stems.length === 0) {
        forms.push([]);
        continue;
      }
      const result = (await readDatabase(strapi).raw(
        `SELECT DISTINCT term FROM ${TABLES.searchStems} WHERE stem = ANY(?::text[]) LIMIT ${MOST_FORMS_PER_QUERY_WORD}`,
        [[...stems]],
      )) as { rows: Array<{ term: string }> };
      const runs = result.rows.flatMap((row) => lettersAndDigits(String(row.term)));
      // Those holding the word are scored by it already (word:*), and would weigh twice.
      forms.push([...new Set(runs.filter((run) => !run.includes(foldCase(word)) && shareStem(run, word)))].sort());
    }
    return forms;
  };
  // Found once per request: a relevance page past the title tier asks rankedAlone, then rank().
  const formsOf = (words: string[]): Promise<string[][]> =>
    oncePerRequest(strapi, `postgres-forms:${JSON.stringify(words)}`, () => findForms(words));

  const removeEntries = async (db: Knex, documentIds: string[]): Promise<void> => {
    // Each removed entry is written down in the same statement (see countAlone).
    await db.raw(
      `WITH gone AS (DELETE FROM ${TABLES.searchDocuments} WHERE document_id = ANY(?::text[]) RETURNING 1) INSERT INTO ${TABLES.searchRemovals} (removed) SELECT 1 FROM gone`,
      [documentIds],
    );
    await db(TABLES.searchLongTerms).whereIn('document_id', documentIds).delete();
  };

  /**
   * Tables of an earlier form are replaced, and the build fills the new ones: each article's whole
   * text, trigram-indexed; or entries without their words for ranking (`weighted`).
   */
  const dropEarlierForm = async (db: Knex): Promise<void> => {
    if (!(await db.schema.hasTable(TABLES.searchDocuments))) return;
    if (await db.schema.hasColumn(TABLES.searchDocuments, 'body')) {
      strapi.log.info('artikel: search index: replacing the whole-text index with the word index');
    } else if (!(await db.schema.hasColumn(TABLES.searchDocuments, 'weighted'))) {
      strapi.log.info('artikel: search index: adding the words for the relevance order; the index is built again');
    } else if (!(await db.schema.hasColumn(TABLES.searchDocuments, 'words'))) {
      strapi.log.info("artikel: search index: adding each article's words as a tsvector for the pages' walks; the index is built again");
    } else return;
    await db.schema.dropTable(TABLES.searchDocuments);
    await db.schema.dropTableIfExists(TABLES.searchLongTerms);
    await forgetFrequentTerms(db);
  };

  /** The index is built anew: what was counted of the old one says nothing of it. */
  const forgetFrequentTerms = async (db: Knex): Promise<void> => {
    await db.schema.dropTableIfExists(TABLES.searchFrequentTerms);
    await db.schema.dropTableIfExists(TABLES.searchRemovals);
  };

  /**
   * Counts, in the background, the entries of each term in at least `threshold` of them, and
   * forgets the removals those numbers already reflect: one REPEATABLE READ transaction, so the
   * numbers and the removals deleted are of one snapshot, and the removals of writes still under
   * way then (invisible to it) stay and are subtracted later. One instance at a time (an advisory
   * lock), each at most every RECOUNT_INTERVAL_MS.
   */
  let recounting = false;
  let nextRecount = Number.NEGATIVE_INFINITY;
  const recountFrequentTerms = (threshold: number): void => {
    if (recounting || Date.now() < nextRecount) return;
    recounting = true;
    const started = Date.now();
    // Detached from the search that asked for it, which answers without waiting.
    const recount = detached(() =>
      strapi.db.connection.transaction(
        async (trx) => {
          const { rows } = (await trx.raw('SELECT pg_try_advisory_xact_lock(?) AS locked', [FREQUENT_TERMS_LOCK])) as {
            rows: Array<{ locked: boolean }>;
          };
          if (rows[0]?.locked !== true) return;
          await trx.raw(`DELETE FROM ${TABLES.searchFrequentTerms}`);
          await trx.raw(
            `INSERT INTO ${TABLES.searchFrequentTerms} (term, docs) SELECT term, count(*) FROM ${TABLES.searchDocuments}, unnest(terms) AS term GROUP BY term HAVING count(*) >= ?`,
            [threshold],
          );
          await trx.raw(`DELETE FROM ${TABLES.searchRemovals}`);
        },
        { isolationLevel: 'repeatable read' },
      ),
    );
    void Promise.resolve(recount)
      .catch((error: unknown) =>
        strapi.log.warn(`artikel: search index: the frequent words were not counted (${(error as Error).message})`),
      )
      .finally(() => {
        recounting = false;
        nextRecount = Date.now() + Math.max(RECOUNT_INTERVAL_MS, RECOUNT_SHARE * (Date.now() - started));
      });
  };

  /**
   * A word's dictionary terms: those holding it, and those sharing one of its stems (see
   * utils/word-stems.ts); null past MOST_SENT_TERMS. Found once per request (a list's count and
   * its page ask for them).
   */
  const termsKey = (word: string): string => `postgres-terms:${word}`;
  const termsOf = (word: string): Promise<string[] | null> =>
    oncePerRequest(strapi, termsKey(word), async () => {
      const { rows } = (await readDatabase(strapi).raw(`${TERMS_OF_WORD} LIMIT ${MOST_SENT_TERMS + 1}`, termsOfWordBindings(word))) as {
        rows: Array<{ term: string }>;
      };
      return sentTerms(rows.map((row) => row.term));
    });

  return {
    async ensure({ empty }) {
      await dropEarlierForm(knex());
      if (empty) {
        await knex().schema.dropTableIfExists(TABLES.searchDocuments);
        await knex().schema.dropTableIfExists(TABLES.searchLongTerms);
        await forgetFrequentTerms(knex());
      }
      await knex().raw(`CREATE TABLE IF NOT EXISTS ${TABLES.searchFrequentTerms} (term text PRIMARY KEY, docs integer NOT NULL)`);
      await knex().raw(`CREATE TABLE IF NOT EXISTS ${TABLES.searchRemovals} (removed smallint NOT NULL)`);
      await knex().raw(
        `CREATE TABLE IF NOT EXISTS ${TABLES.searchDocuments} (document_id varchar(255) PRIMARY KEY, article_id integer, terms text[] NOT NULL, words tsvector, weighted tsvector)`,
      );
      await knex().raw(`CREATE INDEX IF NOT EXISTS ${TABLES.searchDocuments}_terms ON ${TABLES.searchDocuments} USING gin (terms)`);
      await knex().raw(`CREATE TABLE IF NOT EXISTS ${TABLES.searchTerms} (term text PRIMARY KEY)`);
      // A dictionary from before the stems gets its terms' stems here (see keepStems).
      const withoutStems = !(await knex().schema.hasTable(TABLES.searchStems));
      await knex().raw(
        `CREATE TABLE IF NOT EXISTS ${TABLES.searchStems} (stem text NOT NULL, term text NOT NULL, PRIMARY KEY (stem, term))`,
      );
      if (withoutStems) await keepStems(knex());
      await knex().raw(
        `CREATE INDEX IF NOT EXISTS ${TITLE_WORDS_INDEX} ON ${TABLES.articles} USING gin ((${titleWords('title')})) WHERE published_at IS NOT NULL`,
      );
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
      for (let start = 0; start < stale.length; start += INSERT_BATCH_ROWS) {
        await knex().transaction((trx) => removeEntries(trx, stale.slice(start, start + INSERT_BATCH_ROWS)));
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

    // The dictionary is as old as this index, and written with each entry, as its trigram index is: nothing to fill.
    fillVocabulary: async () => true,
    fillTrigrams: async () => true,
    compact: async () => true,

    async settle(added) {
      // GIN indexes take their entries as they come; nothing to merge. The planner's statistics
      // of the new entries: without them it took reading every entry's array for the cheaper way.
      if (added > 0) await knex().raw(`ANALYZE ${TABLES.searchDocuments}, ${TABLES.searchTerms}, ${TABLES.searchStems}`);
    },

    async filter(query, words, documentColumn, { forPage, matching }) {
      // Until the index is complete, the articles' own text is read.
      if (!indexComplete(strapi)) {
        for (const word of words) scanFor(query, word, false);
        return;
      }
      const [short, long] = [words.filter((word) => !isLong(word)), words.filter(isLong)];
      if (short.length > 0) {
        // One scan of the array index with every word's dictionary matches: a word that matches
        // no dictionary word makes its condition unsatisfiable, and the scan ends at once.
        const holding = knex()(TABLES.searchDocuments);
        for (const word of short) {
          const terms = await termsOf(word);
          // Given as values, the terms let the planner see how few documents hold them and take
          // the array index: found inside the query, they were an unknown to it, and it read every
          // entry's array (211 instead of 3 ms for a word in 320 of 10,000 articles). A word in
          // too many terms to send (a letter) leaves them to the query. A page's walk tests each
          // article it passes by its tsvector instead (see walkTestOf).
          if (terms === null) holding.whereRaw(`terms && ARRAY(${TERMS_OF_WORD})`, termsOfWordBindings(word));
          else if (forPage) {
            const test = walkTestOf(terms);
            holding.whereRaw(test.sql, test.bindings);
          } else holding.whereRaw(HOLDS_ONE_OF, [terms]);
        }
        // A page read through its matches (the caller counted them and chose not to walk) names
        // their published rows: the array index's matches, then a lookup of each row by its id and
        // a sort of them, where a walk would test the words of many more articles (see
        // walkTestCost). It runs with sequential scans off (see newest in articles/lists.ts): the
        // planner does not count what reading each entry's array costs. The matches are given as an
        // array (= ANY of an init plan), so the rows are looked up by id whatever the planner
        // estimates: as a join (IN) it chose for some words to read every published article into a
        // hash join instead, 3 to 6 ms where the lookups take 0.5 to 0.9 (words in 345 to 600 of
        // 10,000 articles).
        if (!forPage && matching !== undefined) query.whereRaw('a.id = ANY(ARRAY(?))', [holding.select('article_id')]);
        else query.whereRaw('? IN ?', [documentColumn, holding.select('document_id')]);
      }
      for (const word of long) {
        query.whereRaw('? IN ?', [
          documentColumn,
          knex()(TABLES.searchLongTerms)
            .select('document_id')
            .whereRaw("term LIKE ? ESCAPE '\\'", [holdingPattern(word)]),
        ]);
      }
    },

    async countAlone(words, upTo) {
      // Within a write's transaction a long read runs on it as it is, sequential scans allowed: counted with the articles instead.
      if (!indexComplete(strapi) || words.some(isLong) || inAnyTransaction(strapi)) return null;
      // One statement finds each word's terms and counts the entries holding one of each word's
      // terms: one entry per published article, kept so by every write's own transaction, so its
      // matches are the articles. The terms are found first (a CTE, then each given to the count as
      // a value), and the count reads the array index: the planner passes over it for a common
      // word (it does not count what reading each entry's array costs): 7 instead of 110 ms for a
      // word in 9,450 of 10,000 articles. Hence a long read with sequential scans off. The terms
      // are remembered for the request's page (see termsOf); a word with too many to send is
      // counted with the articles instead.
      //
      // GIN answers only bitmaps: counting a word in 94,794 of 100,000 articles gathered all its
      // matches first (8.7 of 10.4 ms) to count 10,000 of them. So a word of one of the frequent
      // terms is known to have at least that term's number of entries when last counted, less the
      // entries removed since (each removal or replacement is a row of the removals table, written
      // in its write's transaction): where that is at least the bound, the count is not run (the
      // CASE's subquery is evaluated only where needed). Only for one word: of several, each one's
      // number says nothing of how many hold them all.
      const found = words.map((_word, index) => `ARRAY(${TERMS_OF_WORD} LIMIT ${MOST_SENT_TERMS + 1}) AS t${index}`);
      const holding = words.map((_word, index) => `terms && (SELECT t${index} FROM t)`).join(' AND ');
      const bound = upTo === null ? null : Math.max(0, Math.floor(upTo));
      const counted = `(SELECT count(*) FROM (SELECT 1 FROM ${TABLES.searchDocuments} WHERE ${holding}${bound === null ? '' : ` LIMIT ${bound}`}) m)`;
      // The bound a one-word search may know it reaches; null: always counted.
      const knowable = words.length === 1 ? bound : null;
      const sql =
        knowable !== null
          ? `WITH t AS MATERIALIZED (SELECT ${found.join(', ')}),
           k AS MATERIALIZED (SELECT f.docs - r.removed AS known, r.removed
             FROM (SELECT COALESCE(max(docs), 0) AS docs FROM ${TABLES.searchFrequentTerms} WHERE term = ANY((SELECT t0 FROM t)::text[])) f,
                  (SELECT count(*) AS removed FROM ${TABLES.searchRemovals}) r)
           SELECT t.*, k.known, k.removed, CASE WHEN k.known >= ${knowable} THEN ${knowable} ELSE ${counted} END AS total FROM t, k`
          : `WITH t AS MATERIALIZED (SELECT ${found.join(', ')}) SELECT t.*, ${counted} AS total FROM t`;
      const [row] = (await longReadRows(strapi, knex().raw(sql, words.flatMap(termsOfWordBindings)), 'no-sequential')) as Array<
        Record<string, unknown>
      >;
      const termLists = words.map((_word, index) => sentTerms((row?.[`t${index}`] as string[] | undefined) ?? []));
      words.forEach((word, index) => void oncePerRequest(strapi, termsKey(word), async () => termLists[index]));
      const total = Number(row?.total ?? 0);
      // A frequent word counted, not known (new, or its number spent by removals), or removals
      // piling up: the frequent terms are counted again.
      if (knowable !== null) {
        const spent = Number(row?.known ?? 0) < knowable && total >= knowable;
        if (spent || Number(row?.removed ?? 0) > knowable / 10) recountFrequentTerms(knowable);
      }
      return termLists.some((terms) => terms === null) ? null : total;
    },

    async rank(query, words) {
      // Where every word is ASCII letters and digits of three or more (scoredByWordStarts), from
      // each entry's tsvector (lexemes with their positions and labels, a fraction of the text):
      // every word in the title first (a tsquery restricted to label A), then the sum over the
      // words of ts_rank_cd, which for one word adds its label's weight for each occurrence (the
      // title weighted above the tags above the content). A word counts where it is or begins a
      // word, as on SQLite: an article holding it only inside a longer word is not scored (0) and
      // comes after, newest first. Otherwise, and while the index is built, the text is read.
      if (!indexComplete(strapi) || !scoredByWordStarts(words)) {
        orderByTextScore(query, words, false);
        return;
      }
      const forms = await formsOf(words);
      const score = rankScore(words, forms);
      query
        .leftJoin({ r: TABLES.searchDocuments }, 'r.document_id', 'a.document_id')
        .orderByRaw(`CASE WHEN r.weighted @@ to_tsquery('simple', ?) THEN 0 ELSE 1 END`, [wordStartsQuery(words, forms, 'A')])
        .orderByRaw(`${score.sql} DESC`, score.bindings);
    },

    async rankedAlone(words, limit, offset) {
      // Where the page lies within the first tier (every word in the title), that tier alone in
      // rank()'s order: found through the titles' index, and only its entries' ranking tsvectors
      // read, where rank() reads every match's (106 ms a search at 10,000 articles, for words in
      // up to 95 % of them). Otherwise, and where rank() reads the text, null: the caller ranks
      // every match with filter and rank.
      if (!indexComplete(strapi) || !scoredByWordStarts(words) || words.some(isLong)) return null;
      const forms = await formsOf(words);
      const score = rankScore(words, forms);
      const through = offset + limit;
      const rows = (await longReadRows(
        strapi,
        // The tier first (MATERIALIZED): left to plan the join, PostgreSQL chose at 100,000 articles
        // to score every entry in rank order and test each one's title (440 ms for a word in 95 %).
        knex().raw(
          `WITH titled AS MATERIALIZED (
             SELECT a.document_id, a.published_at, a.created_at FROM ${TABLES.articles} a
             WHERE a.published_at IS NOT NULL AND ${titleWords('a.title')} @@ to_tsquery('simple', ?))
           SELECT a.document_id FROM titled a JOIN ${TABLES.searchDocuments} r ON r.document_id = a.document_id
           ORDER BY ${score.sql} DESC, ${NEWEST_FIRST} LIMIT ${through}`,
          [wordStartsQuery(words, forms), ...score.bindings],
        ),
      )) as Array<{ document_id: string }>;
      if (rows.length < through) return null;
      return rows.slice(offset).map((row) => String(row.document_id));
    },
    // A walk tests each article's words (its entry's lookup, then each of the word's terms looked
    // up among its tsvector's: about 7 µs at 10,000 articles); a match read through the array index
    // costs its row's lookup and its place in the sort (about 3 µs). Over the benchmark's 50
    // words, a page of 10 was found sooner by the walk above about 440 matches in 9,500.
    walkTestCost: 2,

    async similarWords(word, limit) {
      const folded = foldCase(word);
      if ([...folded].length < 3 || isLong(folded)) return [];
      // The dictionary's trigram index (pg_trgm's % operator: trigram similarity of at least
      // pg_trgm.similarity_threshold, 0.3 by default), most alike first.
      let rows: Array<{ term: string }>;
      try {
        const result = (await readDatabase(strapi).raw(
          `SELECT term FROM ${TABLES.searchTerms} WHERE term % ? ORDER BY similarity(term, ?) DESC, term LIMIT ${Math.max(1, Math.floor(limit))}`,
          [folded, folded],
        )) as { rows: Array<{ term: string }> };
        rows = result.rows;
      } catch (error) {
        // Without pg_trgm (a role that may not create it) there is no similarity to ask for.
        strapi.log.debug(`artikel: no spelling suggestion without pg_trgm: ${(error as Error).message}`);
        return [];
      }
      const candidates = new Set<string>();
      for (const row of rows) for (const candidate of lettersAndDigits(row.term)) if (candidate !== folded) candidates.add(candidate);
      return [...candidates];
    },
  };
}
