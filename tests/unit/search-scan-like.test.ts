import Database from 'better-sqlite3';
import createKnex from 'knex';
import { COLUMN_WEIGHTS, orderByTextScore, textHolds } from '../../src/plugins/artikel/server/src/repositories/search/shared';
import { FOLD_SQL_FUNCTION, foldCase, foldSqlValue, likeFindsAsFolded } from '../../src/plugins/artikel/server/src/utils/search-words';

/**
 * A scan tests each article's text for a word. SQLite's LIKE, which folds ASCII letters only,
 * stands in for the fold's JavaScript function where it finds exactly what the fold finds: checked
 * here against the fold itself on a real SQLite connection, over every character whose fold holds
 * ASCII and words of ASCII letters, digits and LIKE's own wildcards. So does SQLite's own lower case
 * where the relevance is counted from the text.
 */

// Every character outside ASCII that folds to something holding ASCII (the Kelvin sign and İ).
const FOLDING_INTO_ASCII = Array.from({ length: 0x110000 - 0x80 }, (_, index) => index + 0x80)
  .filter((code) => code < 0xd800 || code > 0xdfff)
  .map((code) => String.fromCodePoint(code))
  .filter((character) => /[\u0000-\u007f]/.test(foldCase(character)));

const ALPHABET = ['a', 'b', 'i', 'k', 'n', 'o', 'z', '5', '%', '_', '\\', ' '];
const PAIRS = ALPHABET.flatMap((first) => ALPHABET.map((second) => `${first}${second}`));

let db: Database.Database;

beforeAll(() => {
  db = new Database(':memory:');
  db.function(FOLD_SQL_FUNCTION, { deterministic: true }, foldSqlValue);
  db.exec('CREATE TABLE a (id INTEGER PRIMARY KEY, title TEXT, content TEXT, tags TEXT)');
  const texts = [
    ...FOLDING_INTO_ASCII.flatMap((character) => [character, `BEN${character}`, `${character}NO`, `O${character}Z`]),
    ...PAIRS.flatMap((pair) => [pair, pair.toUpperCase(), `x${pair.toUpperCase()}y`]),
    'Diskon 50% untuk SOFTBOX_KEY di C:\\FOTO',
    'Lensa Nikon',
    null,
  ];
  const insert = db.prepare('INSERT INTO a (title, content, tags) VALUES (?, ?, ?)');
  texts.forEach((text, index) => insert.run(text, texts[(index * 7) % texts.length], texts[(index * 13) % texts.length]));
});

afterAll(() => db.close());

type TextColumn = keyof typeof COLUMN_WEIGHTS;

/** Non-overlapping occurrences of `word` in the folded text, left to right, as replace() removes them. */
const occurrencesIn = (text: string | null, word: string): number => (text === null ? 0 : foldCase(text).split(word).length - 1);

const idsWhere = (sql: string, bindings: string[]): number[] =>
  (db.prepare(`SELECT id FROM a WHERE ${sql} ORDER BY id`).all(...bindings) as Array<{ id: number }>).map((row) => row.id);

describe('a scan by LIKE where it finds what the fold finds', () => {
  it('finds every word of one or two characters in exactly the texts whose fold holds it', () => {
    expect(FOLDING_INTO_ASCII.length).toBeGreaterThan(0);
    for (const word of [...ALPHABET, ...PAIRS]) {
      const folded = foldCase(word);
      const holds = textHolds('a.title', folded, true);
      expect({ word, ids: idsWhere(holds.sql.replace('a.title', 'title'), holds.bindings) }).toEqual({
        word,
        ids: idsWhere(`instr(${FOLD_SQL_FUNCTION}(title), ?) > 0`, [folded]),
      });
    }
  });

  it('is used for ASCII words without a "k" that do not end in "i", and the fold for the rest', () => {
    expect(likeFindsAsFolded('lensa')).toBe(true);
    expect(likeFindsAsFolded('50%')).toBe(true);
    expect(textHolds('a.title', 'lensa', true).sql).toContain('LIKE');
    for (const word of ['kabut', 'nikon', 'beni', 'kafé', 'ni']) {
      expect(likeFindsAsFolded(word)).toBe(false);
      expect(textHolds('a.title', word, true).sql).toContain(FOLD_SQL_FUNCTION);
    }
  });
});

describe("relevance counted from the text by SQLite's lower case where it finds what the fold finds", () => {
  it('orders by title first, then the weighted occurrences, as the fold counts them', async () => {
    const knex = createKnex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });
    let connection: Database.Database | undefined;
    try {
      // The same rows on a connection of knex's, which orderByTextScore's query runs on.
      const rows = db.prepare('SELECT id, title, content, tags FROM a').all() as Array<{ id: number } & Record<TextColumn, string | null>>;
      // knex's one connection, held for the test (given back before knex is destroyed, which waits for it), with the fold function registered on it.
      connection = (await knex.client.acquireConnection()) as Database.Database;
      connection.function(FOLD_SQL_FUNCTION, { deterministic: true }, foldSqlValue);
      connection.exec('CREATE TABLE a (id INTEGER PRIMARY KEY, title TEXT, content TEXT, tags TEXT)');
      const insert = connection.prepare('INSERT INTO a (id, title, content, tags) VALUES (?, ?, ?, ?)');
      for (const row of rows) insert.run(row.id, row.title, row.content, row.tags);
      const byId = new Map(rows.map((row) => [row.id, row]));
      for (const words of [['zq'], ['5%'], ['o', 'n'], ['ni'], ['ok', 'b_']]) {
        const ranked = (await orderByTextScore(knex({ a: 'a' }).select('a.id'), words, true).connection(connection)) as Array<{
          id: number;
        }>;
        // What the fold gives each row: whether every word is in its title, and its weighted occurrences.
        const keys = ranked.map(({ id }) => {
          const row = byId.get(id);
          if (row === undefined) throw new Error(`row ${id} was not inserted`);
          const inTitle = words.every((word) => occurrencesIn(row.title, foldCase(word)) > 0) ? 0 : 1;
          const score = words.reduce(
            (sum, word) =>
              sum +
              Object.entries(COLUMN_WEIGHTS).reduce(
                (part, [column, weight]) => part + weight * occurrencesIn(row[column as TextColumn], foldCase(word)),
                0,
              ),
            0,
          );
          return [inTitle, -score];
        });
        const sorted = [...keys].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
        expect({ words, keys }).toEqual({ words, keys: sorted });
        expect(ranked).toHaveLength(rows.length);
      }
    } finally {
      if (connection !== undefined) await knex.client.releaseConnection(connection);
      await knex.destroy();
    }
  });
});
