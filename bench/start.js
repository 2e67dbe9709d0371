// @ts-check
'use strict';

// How soon our app answers after it starts on a seeded SQLite file, with its tag and search index
// as the file has it: complete (a restart), or missing or partly built (a new or imported file),
// in which case the index is built in the background while the app answers. Reports the seconds
// to the first answer, what two searches, a tag filter and the list cost while the index is built
// (they read the articles) or, on a complete index, right after the first answer, and with
// --until-indexed when the index was complete and when the trigram index, which the app fills
// after it, was too, with the same reads in between
// (--watch-build S: at most S seconds of it). While it watches the build it samples the process's
// resident memory, and it reports the peak: the app runs with the Node options `npm start` gives
// it (V8's heap cap).
//
//   node bench/start.js [--articles 1000000] [--until-indexed | --watch-build S] [--fresh-index] [--skip-build]
//
// --build-searches: while the word index is built (and --until-indexed or --watch-build lets the run
// watch it), one search after the other, no two alike (the vocabulary's words, then pairs of them),
// reported as p50, p99 and max with their statuses (issue 56: a search during the build at a
// million within 2 s at p99).
//
// --fresh-index starts on a private copy of the seeded file with the plugin's index tables (tags,
// kept counts, search) dropped, as an imported file has them: the app builds the whole index, and
// the seeded file keeps its own.
//
// Targets (issue 14): the first answer within 5 s of start on a complete index, within 15 s on a
// missing one.

const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('./lib/args');
const { build, gitState, machine, say, seed } = require('./lib/run-steps');
const { RESULTS_DIR } = require('./lib/server-env');
const { memoryOf, percentile, privateCopy, startApp, stopServer } = require('./lib/side-runs');
const { createArticleGenerator } = require('./lib/article-generator');
const { indexCounts, sqliteStore } = require('./lib/store');
const { serviceNodeOptions } = require('../scripts/node-options');

const TARGET_COMPLETE_S = 5;
const TARGET_MISSING_S = 15;
// How long to wait for the build with --until-indexed: at a million articles it reads the whole file.
const BUILD_TIMEOUT_MS = 4 * 3600_000;
const SAMPLE_EVERY_MS = 1000;

async function timedGet(baseUrl, url) {
  const started = performance.now();
  const response = await fetch(`${baseUrl}${url}`);
  /** @type {any} */
  const body = await response.json();
  return { url, status: response.status, ms: Math.round(performance.now() - started), total: body.meta?.pagination?.total ?? null };
}

/**
 * The n-th search while the index is built: each real word of the generator's vocabulary once (at
 * least 3 letters), taken across its frequency ranks (a stride coprime with their number), then
 * pairs of them. No two are alike, so neither an answer nor a count comes from a cache.
 */
function buildSearchText(words, n) {
  const spread = (i) => words[(i * 7) % words.length];
  if (n < words.length) return spread(n);
  return `${spread(n)} ${spread(n * 13 + 5)}`;
}

/** Sends searches one after the other until `stopped()` says so (see buildSearchText); returns every answer's status and time. */
async function searchesUntil(baseUrl, stopped) {
  const words = createArticleGenerator().realWords.filter((word) => word.length >= 3);
  const answers = [];
  const startedAt = performance.now();
  for (let n = 0; !stopped(); n += 1) {
    const answer = await timedGet(baseUrl, `/api/artikel?q=${encodeURIComponent(buildSearchText(words, n))}`);
    answers.push({ ...answer, secondsIn: Math.round((performance.now() - startedAt) / 1000) });
  }
  return answers;
}

/** p50, p99 and max of the answers' times, and how many had each status. */
function summarizeAnswers(answers) {
  const times = answers.map((answer) => answer.ms);
  const statuses = {};
  for (const answer of answers) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
  return { searches: answers.length, p50Ms: percentile(times, 50), p99Ms: percentile(times, 99), maxMs: Math.max(0, ...times), statuses };
}

/**
 * Samples the index's progress and the server's memory until the index is complete (every
 * published article in the word index with its words in the vocabulary, and in the trigram index,
 * which the app fills after) or `limitMs` has passed. `onIndexed` runs once, when every article is
 * in the word index and the vocabulary.
 */
async function watchBuild(store, server, limitMs, onIndexed) {
  const samples = [];
  let indexedSeconds = null;
  for (;;) {
    const counts = await indexCounts(store);
    const { rssMb, peakRssMb } = memoryOf(server.child.pid);
    const seconds = (Date.now() - server.startedAt) / 1000;
    samples.push({ seconds: Math.round(seconds), indexed: counts.indexed, withoutTrigrams: counts.withoutTrigrams ?? 0, rssMb });
    if (samples.length % 60 === 1)
      say(
        `[start] ${Math.round(seconds)} s: ${counts.indexed.toLocaleString('en-US')} of ${counts.published.toLocaleString('en-US')} indexed, ${(counts.withoutTrigrams ?? 0).toLocaleString('en-US')} not yet in the trigram index, RSS ${rssMb} MB (peak ${peakRssMb})`,
      );
    if (indexedSeconds === null && counts.indexed >= counts.published && !counts.withoutWords) {
      indexedSeconds = seconds;
      await onIndexed();
    }
    if (indexedSeconds !== null && !counts.withoutTrigrams) return { complete: true, indexedSeconds, seconds, samples };
    if (Date.now() - server.startedAt > limitMs) return { complete: false, indexedSeconds, seconds, samples };
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
  }
}

// The tables the plugin builds from the articles (constants.ts TABLES), the search's FTS5 tables with their shadow tables.
const INDEX_TABLES = [
  'artikel_tags',
  'artikel_article_counts',
  'artikel_search_docs',
  'artikel_search',
  'artikel_search_words',
  'artikel_search_vocabulary',
  'artikel_search_vocabulary_trigrams',
  'artikel_search_vocabulary_backfill',
  'artikel_search_trigram_backfill',
];

/** A private copy of the seeded file without the plugin's index, removed after the run. */
function withoutIndex(seededFile) {
  const copy = privateCopy(seededFile, 'start-fresh-index');
  const Database = require('better-sqlite3');
  const db = new Database(copy.store.file, { fileMustExist: true });
  try {
    for (const table of INDEX_TABLES) db.exec(`DROP TABLE IF EXISTS ${table}`);
  } finally {
    db.close();
  }
  return copy;
}

async function main() {
  const options = parseArgs(
    process.argv.slice(2),
    { articles: 1000000, untilIndexed: false, watchBuild: 0, freshIndex: false, skipBuild: false, buildSearches: false },
    { zeroAllowed: ['watchBuild'] },
  );
  const createdAt = new Date().toISOString();
  const buildInfo = build(options.skipBuild);
  const seedInfo = await seed(options.articles, 'sqlite');
  const copy = options.freshIndex ? withoutIndex(seedInfo.database) : null;
  const store = copy?.store ?? sqliteStore(seedInfo.database);
  const before = await indexCounts(store);
  const complete = before.indexed === before.published;
  say(
    `\n${before.indexed.toLocaleString('en-US')} of ${before.published.toLocaleString('en-US')} published articles indexed; starting our app ...`,
  );

  const server = await startApp({ store, name: 'start', waitForIndex: false });
  /**
   * @type {{ nodeOptions: string, firstAnswerSeconds: number, target: number,
   *   duringBuild: Awaited<ReturnType<typeof timedGet>>[], duringTrigramFill: Awaited<ReturnType<typeof timedGet>>[],
   *   afterStart: Awaited<ReturnType<typeof timedGet>>[],
   *   indexedSeconds: number | null, trigramsSeconds: number | null,
   *   buildWatch: { seconds: number, complete: boolean, samples: Awaited<ReturnType<typeof watchBuild>>['samples'] } | null,
   *   peakRssMb: number | null, buildingInBackground?: boolean,
   *   searchesDuringBuild?: ReturnType<typeof summarizeAnswers> & { answers: Array<{ url: string, status: number, ms: number }> } }}
   */
  const result = {
    nodeOptions: serviceNodeOptions(),
    firstAnswerSeconds: server.startupSeconds,
    target: complete ? TARGET_COMPLETE_S : TARGET_MISSING_S,
    duringBuild: [],
    duringTrigramFill: [],
    afterStart: [],
    indexedSeconds: null,
    trigramsSeconds: null,
    buildWatch: null,
    peakRssMb: null,
  };
  say(`[start] first answer after ${server.startupSeconds.toFixed(1)} s (target ${result.target} s)`);
  try {
    const baseUrl = `http://127.0.0.1:${server.port}`;
    // The app builds in the background what the file's search entries do not cover.
    const building = !complete;
    result.buildingInBackground = building;
    const READS = ['/api/artikel?q=golden', '/api/artikel?q=ang', '/api/artikel?tag=portrait', '/api/artikel'];
    /**
     * Each of READS once, in turn, timed: into `answers`, and said with `when`.
     * @param {string} when
     * @param {Awaited<ReturnType<typeof timedGet>>[]} answers
     */
    const timedReads = async (when, answers) => {
      for (const url of READS) {
        const answer = await timedGet(baseUrl, url);
        answers.push(answer);
        say(`[start] ${when}: ${url} answered ${answer.status} in ${answer.ms} ms (total ${answer.total})`);
      }
    };
    // On a complete index, right after the first answer, beside the start's own background work
    // (the look for rows without a reading time, the word index's merge): nothing should wait on it.
    if (!building) await timedReads('right after the start', result.afterStart);
    if (building) await timedReads('while the index is built', result.duringBuild);
    if (building && (options.untilIndexed || options.watchBuild > 0)) {
      // With --build-searches, searches one after the other until every article is in the word index.
      let indexed = false;
      const searching = options.buildSearches ? searchesUntil(baseUrl, () => indexed) : Promise.resolve([]);
      // Once every article is in the word index, the same reads while the trigram index is filled.
      const watched = await watchBuild(store, server, options.untilIndexed ? BUILD_TIMEOUT_MS : options.watchBuild * 1000, async () => {
        indexed = true;
        await searching;
        await timedReads('while the trigram index is filled', result.duringTrigramFill);
      });
      indexed = true;
      const answers = await searching;
      if (options.buildSearches) {
        result.searchesDuringBuild = { ...summarizeAnswers(answers), answers };
        const { searches, p50Ms, p99Ms, maxMs, statuses } = result.searchesDuringBuild;
        say(
          `[start] ${searches} searches while the index was built: p50 ${p50Ms} ms, p99 ${p99Ms} ms, max ${maxMs} ms; statuses ${JSON.stringify(statuses)}`,
        );
      }
      result.buildWatch = { seconds: Math.round(watched.seconds), complete: watched.complete, samples: watched.samples };
      result.indexedSeconds = watched.indexedSeconds;
      if (watched.complete) result.trigramsSeconds = watched.seconds;
      say(
        `[start] ${watched.indexedSeconds === null ? 'the word index was not complete' : `every article in the word index after ${watched.indexedSeconds.toFixed(0)} s`}; ${watched.complete ? `the trigram index complete after ${watched.seconds.toFixed(0)} s` : `stopped watching the build after ${watched.seconds.toFixed(0)} s`}`,
      );
    }
    result.peakRssMb = memoryOf(server.child.pid).peakRssMb;
    say(`[start] peak RSS ${result.peakRssMb} MB (Node options: ${result.nodeOptions})`);
  } finally {
    await stopServer(server);
  }
  const indexAfter = await indexCounts(store);
  copy?.remove();

  const results = {
    createdAt,
    options,
    machine: machine(),
    app: gitState(),
    build: buildInfo,
    seed: seedInfo,
    indexBefore: before,
    indexComplete: complete,
    ...result,
    indexAfter,
  };
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const name = `start-${options.articles}-${complete ? 'complete' : 'incomplete'}`;
  // The latest figures only: earlier runs are in git's history.
  fs.writeFileSync(path.join(RESULTS_DIR, `latest-${name}.json`), `${JSON.stringify(results, null, 2)}\n`);
  say(`[start] results in bench/results/latest-${name}.json`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
