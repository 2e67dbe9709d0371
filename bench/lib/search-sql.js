// @ts-check
'use strict';

const Database = require('better-sqlite3');
const { tableExists } = require('./raw-queries');
const { median } = require('./median');

const LIKE_COUNT = `SELECT count(*) FROM articles WHERE published_at IS NOT NULL
  AND (LOWER(title) LIKE ? OR LOWER(content) LIKE ? OR LOWER(tags) LIKE ?)`;
const FTS_COUNT = `SELECT count(*) FROM artikel_search s JOIN artikel_search_docs d ON d.id = s.rowid WHERE artikel_search MATCH ?`;

const timed = (statement, params) => {
  const start = process.hrtime.bigint();
  const count = statement.pluck().get(...params);
  return { count, ms: Number(process.hrtime.bigint() - start) / 1e6 };
};

/**
 * The search alone, without HTTP: the plugin's full-text index against the LIKE scan it replaces,
 * counting the same published articles for each word. Each word is timed once after an untimed
 * pass that brings the pages into the cache; the median over words is reported.
 */
function compareSearch(databaseFile, words) {
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
  try {
    if (!tableExists(db, 'artikel_search') || !tableExists(db, 'artikel_search_docs')) {
      return {
        skipped: 'the full-text index (artikel_search, artikel_search_docs) is not in this database; the plugin creates it at start',
      };
    }
    const like = db.prepare(LIKE_COUNT);
    const fts = db.prepare(FTS_COUNT);
    const params = (word) => ({ like: Array(3).fill(`%${word.toLowerCase()}%`), fts: [`"${word.replace(/"/g, '""')}"`] });
    for (const word of words) {
      like.pluck().get(...params(word).like);
      fts.pluck().get(...params(word).fts);
    }
    const perWord = words.map((word) => {
      const scan = timed(like, params(word).like);
      const index = timed(fts, params(word).fts);
      return { word, likeMs: scan.ms, ftsMs: index.ms, likeCount: scan.count, ftsCount: index.count };
    });
    const likeMedianMs = median(perWord.map((row) => row.likeMs));
    const ftsMedianMs = median(perWord.map((row) => row.ftsMs));
    return {
      words: perWord.length,
      likeMedianMs,
      ftsMedianMs,
      ratio: likeMedianMs / ftsMedianMs,
      countMismatches: perWord
        .filter((row) => row.likeCount !== row.ftsCount)
        .map((row) => `${row.word}: LIKE ${row.likeCount}, FTS ${row.ftsCount}`),
      perWord,
    };
  } finally {
    db.close();
  }
}

module.exports = { compareSearch };
