// @ts-check
'use strict';

// What issue 33's orders and highlights cost, on a seeded SQLite file, our app uncached
// (ARTIKEL_READ_CACHE_MB=0: every request computed from the database, as right after a write):
//
// - sort=relevance against the same q newest first, for a common word (in most articles) and a
//   rare one (in a few): p50 of each at --connections, and their ratio;
// - sort=views against the plain list: p50 and ratio;
// - the highlight's own cost: highlightOf() (the compiled plugin's) over the rows a search page
//   shows, timed in this process, against the search's p50.
//
// - sort=relevance against a LIKE scan that scores in SQL (what relevance costs without the index):
//   the scan's median time in this process (better-sqlite3 on the same file) against our
//   relevance page's median over HTTP one request at a time (so ours carries HTTP and JSON too).
//
// Each pair is measured --rounds times, the two windows of a round back to back, their order
// turned each round; a figure is the median round's, a ratio the median of the rounds' ratios
// (this shared machine drifts by tens of per cent within minutes).
//
//   node bench/search-ranking.js [--articles 100000] [--duration 5] [--rounds 3] [--connections 20] [--request-timeout 30] [--skip-build]
//
// --request-timeout: seconds a request may wait before it counts as an error; at a million articles a
// common word's search waits longer than 30 s behind 19 others on the long-read thread.
//
// Targets (issue 33): relevance p50 within 1.5× of newest for the same q, and at least 10× faster
// than the LIKE scan; views within 1.3× of the list; the highlight adds at most 10 % to a search's p50.

const path = require('node:path');
const Database = require('better-sqlite3');
const { parseArgs } = require('./lib/args');
const { median, middleOf } = require('./lib/median');
const { runLoad } = require('./lib/load-client');
const { buildAndSeedSqlite, gitState, machine, say, writeLatestResults } = require('./lib/run-steps');
const { startApp, stopServer } = require('./lib/side-runs');

const { searchWordSample } = require('./lib/endpoints');

const TARGETS = { relevance: 1.5, relevanceOverLike: 10, views: 1.3, highlight: 0.1 };

/** @param {number} value */
const round2 = (value) => Math.round(value * 100) / 100;

/**
 * @param {number} port
 * @param {string[]} paths
 * @param {{ connections: number, duration: number, requestTimeout: number }} options
 */
async function p50Of(port, paths, options) {
  const result = await runLoad({
    ports: [port],
    paths,
    connections: options.connections,
    seconds: options.duration,
    warmupSeconds: 1,
    timeoutSeconds: options.requestTimeout,
    // The warm-up's requests left waiting on the long-read thread are answered before the window
    // opens: the path itself queues behind them.
    drainPath: paths[0],
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${paths[0]}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { p50: result.p50, rps: Math.round(result.rps) };
}

/**
 * Two windows a round, `rounds` rounds, the order turned each round: the median round's p50 of each
 * and the median of the rounds' ratios (second over first).
 * @param {number} port
 * @param {string} first
 * @param {string} second
 * @param {{ connections: number, duration: number, rounds: number, requestTimeout: number }} options
 */
async function pairedP50s(port, first, second, options) {
  /** @type {Array<{ first: { p50: number, rps: number }, second: { p50: number, rps: number }, ratio: number }>} */
  const rounds = [];
  for (let round = 0; round < options.rounds; round += 1) {
    const measured = {};
    for (const which of round % 2 === 0 ? ['first', 'second'] : ['second', 'first']) {
      measured[which] = await p50Of(port, [which === 'first' ? first : second], options);
    }
    rounds.push({ first: measured.first, second: measured.second, ratio: measured.second.p50 / Math.max(measured.first.p50, 0.1) });
  }
  return {
    first: middleOf(rounds, (round) => round.first.p50).first,
    second: middleOf(rounds, (round) => round.second.p50).second,
    ratio: round2(median(rounds.map((round) => round.ratio))),
    roundRatios: rounds.map((round) => round2(round.ratio)),
  };
}

/**
 * What relevance costs without the index: the published articles holding the word found by a LIKE
 * scan, every one scored in SQL as the plugin scores without its index (title first, then the
 * occurrences weighted 10 in the title, 5 in the tags, 1 in the content), the page's 10 and the
 * total. Median milliseconds of `times` runs, and the total.
 * @param {import('better-sqlite3').Database} db
 * @param {string} word
 * @param {number} times
 */
function likeScanScored(db, word, times) {
  const pattern = `%${word}%`;
  const occurrences = (/** @type {string} */ column, /** @type {number} */ weight) =>
    `${weight} * ((length(lower(COALESCE(${column}, ''))) - length(replace(lower(COALESCE(${column}, '')), @word, ''))) / length(@word))`;
  const page = db.prepare(
    `SELECT document_id FROM articles WHERE published_at IS NOT NULL AND (title LIKE @pattern OR content LIKE @pattern OR tags LIKE @pattern)
     ORDER BY CASE WHEN instr(lower(COALESCE(title, '')), @word) > 0 THEN 0 ELSE 1 END,
       (${occurrences('title', 10)} + ${occurrences('tags', 5)} + ${occurrences('content', 1)}) DESC,
       published_at DESC, created_at DESC, document_id DESC LIMIT 10`,
  );
  const count = db.prepare(
    'SELECT count(*) AS total FROM articles WHERE published_at IS NOT NULL AND (title LIKE @pattern OR content LIKE @pattern OR tags LIKE @pattern)',
  );
  const samples = [];
  let total = 0;
  for (let run = 0; run < times; run += 1) {
    const started = performance.now();
    page.all({ pattern, word });
    total = /** @type {{ total: number }} */ (count.get({ pattern })).total;
    samples.push(performance.now() - started);
  }
  return { ms: Math.round(median(samples)), total };
}

/**
 * Our relevance page's median over HTTP, one request at a time.
 * @param {string} url
 * @param {number} times
 */
async function sequentialMs(url, times) {
  const samples = [];
  for (let run = 0; run < times; run += 1) {
    const started = performance.now();
    const response = await fetch(url);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url}: HTTP ${response.status}`);
    samples.push(performance.now() - started);
  }
  return round2(median(samples));
}

async function main() {
  const options = parseArgs(process.argv.slice(2), {
    articles: 100000,
    duration: 5,
    rounds: 3,
    connections: 20,
    requestTimeout: 30,
    skipBuild: false,
  });
  const { createdAt, buildInfo, seedInfo, store } = await buildAndSeedSqlite(options);
  // The first and the last sampled words: the vocabulary is ordered from most to least frequent.
  const words = searchWordSample();
  const common = words[0];
  const rare = words[words.length - 1];
  say(
    `\n[search-ranking] our app, uncached, on ${options.articles.toLocaleString('en-US')} articles; common "${common}", rare "${rare}" ...`,
  );
  const server = await startApp({ store, name: 'search-ranking', extra: { ARTIKEL_READ_CACHE_MB: '0' } });
  const base = `http://127.0.0.1:${server.port}`;
  /** @type {Record<string, any>} */
  const figures = {};
  try {
    for (const [label, word] of [
      ['common', common],
      ['rare', rare],
    ]) {
      const { total, total_exact: exact } = /** @type {any} */ (
        await (await fetch(`${base}/api/artikel?q=${encodeURIComponent(word)}`)).json()
      ).meta.pagination;
      const paired = await pairedP50s(
        server.port,
        `/api/artikel?q=${encodeURIComponent(word)}`,
        `/api/artikel?q=${encodeURIComponent(word)}&sort=relevance`,
        options,
      );
      figures[label] = {
        word,
        matches: total,
        newest: paired.first,
        relevance: paired.second,
        ratio: paired.ratio,
        roundRatios: paired.roundRatios,
      };
      say(
        `  q=${word} (${total} matches): newest p50 ${paired.first.p50} ms, relevance p50 ${paired.second.p50} ms (×${paired.ratio}; rounds ${paired.roundRatios.join(', ')})`,
      );
      // Against the LIKE scan that scores in SQL: fewer runs at a million, where one scan takes seconds.
      const runs = options.articles >= 500000 ? 3 : 5;
      const db = new Database(seedInfo.database, { readonly: true, fileMustExist: true });
      const like = likeScanScored(db, word, runs);
      db.close();
      // Past the bound the API's total is a lower bound (contract, fourth round).
      if (exact ? like.total !== total : like.total < total)
        throw new Error(`q=${word}: the LIKE scan counts ${like.total}, the API ${exact ? '' : 'at least '}${total}`);
      const oursMs = await sequentialMs(`${base}/api/artikel?q=${encodeURIComponent(word)}&sort=relevance`, runs * 2);
      figures[label].likeScan = { likeMs: like.ms, relevanceMs: oursMs, ratio: round2(like.ms / Math.max(oursMs, 0.1)) };
      say(`    one at a time: relevance ${oursMs} ms, a LIKE scan scoring in SQL ${like.ms} ms (×${figures[label].likeScan.ratio} faster)`);
    }
    // Some articles read first (1 to 3 times each, 2,000 reads), so the views list has read and unread ones.
    const listed = /** @type {any} */ (await (await fetch(`${base}/api/artikel?limit=50&page=3`)).json());
    for (let round = 0; round < 40; round += 1) {
      await Promise.all(
        listed.data
          .slice(0, 10 + (round % 3) * 20)
          .map((/** @type {any} */ item) =>
            fetch(`${base}/api/artikel/${encodeURIComponent(item.slug)}`).then((response) => response.arrayBuffer()),
          ),
      );
    }
    const views = await pairedP50s(server.port, '/api/artikel', '/api/artikel?sort=views', options);
    figures.views = { list: views.first, views: views.second, ratio: views.ratio, roundRatios: views.roundRatios };
    say(
      `  list p50 ${views.first.p50} ms, sort=views p50 ${views.second.p50} ms (×${views.ratio}; rounds ${views.roundRatios.join(', ')})`,
    );

    // The highlight of a search page, timed alone: the rows the common word's first page shows.
    const { highlightOf } = require(
      path.join(__dirname, '..', 'dist', 'src', 'plugins', 'artikel', 'server', 'src', 'utils', 'highlight.js'),
    );
    const page = /** @type {any} */ (await (await fetch(`${base}/api/artikel?q=${encodeURIComponent(common)}`)).json());
    const db = new Database(seedInfo.database, { readonly: true, fileMustExist: true });
    const rows = page.data.map((/** @type {any} */ item) =>
      db.prepare('SELECT title, content, summary FROM articles WHERE document_id = ? AND published_at IS NOT NULL').get(item.id),
    );
    db.close();
    const samples = [];
    for (let round = 0; round < 200; round += 1) {
      const started = performance.now();
      for (const row of rows) highlightOf(row, [common]);
      samples.push(performance.now() - started);
    }
    const highlightMs = median(samples);
    figures.highlight = { pageMs: round2(highlightMs), share: round2(highlightMs / Math.max(figures.common.newest.p50, 0.1)) };
    say(
      `  highlight of a page (${rows.length} rows): ${round2(highlightMs)} ms, ${Math.round(figures.highlight.share * 100)} % of the search's p50`,
    );
  } finally {
    await stopServer(server);
  }
  const results = {
    createdAt,
    git: gitState(),
    machine: machine(),
    build: buildInfo,
    articles: options.articles,
    connections: options.connections,
    durationSeconds: options.duration,
    rounds: options.rounds,
    targets: TARGETS,
    figures,
  };
  writeLatestResults(`search-ranking-${options.articles}`, results);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
