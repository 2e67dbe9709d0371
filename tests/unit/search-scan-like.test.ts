import Database from 'better-sqlite3';
import { sqliteHolds } from '../../src/plugins/artikel/server/src/repositories/search/shared';
import { FOLD_SQL_FUNCTION, foldCase, likeFindsAsFolded } from '../../src/plugins/artikel/server/src/utils/search-words';

/**
 * A scan tests each article's text for a word. SQLite's LIKE, which folds ASCII letters only,
 * stands in for the fold's JavaScript function where it finds exactly what the fold finds: checked
 * here against the fold itself on a real SQLite connection, over every character whose fold holds
 * ASCII and words of ASCII letters, digits and LIKE's own wildcards.
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
  db.function(FOLD_SQL_FUNCTION, { deterministic: true }, (text: unknown) => (typeof text === 'string' ? foldCase(text) : text));
  db.exec('CREATE TABLE a (id INTEGER PRIMARY KEY, title TEXT)');
  const texts = [
    ...FOLDING_INTO_ASCII.flatMap((character) => [character, `BEN${character}`, `${character}NO`, `O${character}Z`]),
    ...PAIRS.flatMap((pair) => [pair, pair.toUpperCase(), `x${pair.toUpperCase()}y`]),
    'Diskon 50% untuk SOFTBOX_KEY di C:\\FOTO',
    'Lensa Nikon',
    null,
  ];
  const insert = db.prepare('INSERT INTO a (title) VALUES (?)');
  for (const text of texts) insert.run(text);
});

afterAll(() => db.close());

const idsWhere = (sql: string, bindings: string[]): number[] =>
  (db.prepare(`SELECT id FROM a WHERE ${sql} ORDER BY id`).all(...bindings) as Array<{ id: number }>).map((row) => row.id);

describe('a scan by LIKE where it finds what the fold finds', () => {
  it('finds every word of one or two characters in exactly the texts whose fold holds it', () => {
    expect(FOLDING_INTO_ASCII.length).toBeGreaterThan(0);
    for (const word of [...ALPHABET, ...PAIRS]) {
      const folded = foldCase(word);
      const holds = sqliteHolds('a.title', folded);
      expect({ word, ids: idsWhere(holds.sql.replace('a.title', 'title'), holds.bindings) }).toEqual({
        word,
        ids: idsWhere(`instr(${FOLD_SQL_FUNCTION}(title), ?) > 0`, [folded]),
      });
    }
  });

  it('is used for ASCII words without a "k" that do not end in "i", and the fold for the rest', () => {
    expect(likeFindsAsFolded('lensa')).toBe(true);
    expect(likeFindsAsFolded('50%')).toBe(true);
    expect(sqliteHolds('a.title', 'lensa').sql).toContain('LIKE');
    for (const word of ['kabut', 'nikon', 'beni', 'kafé', 'ni']) {
      expect(likeFindsAsFolded(word)).toBe(false);
      expect(sqliteHolds('a.title', word).sql).toContain(FOLD_SQL_FUNCTION);
    }
  });
});
