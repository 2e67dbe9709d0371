// @ts-check
'use strict';

// What bounded counting saves a search (issue "Search", the contract's fourth round): our app
// uncached (ARTIKEL_READ_CACHE_MB=0: every search computed from the database) on a seeded SQLite
// file, serving `q` over the benchmark's 50 sampled words (from words in nearly every article to
// words in a few percent), newest first, at --connections:
//
// - bounded: as shipped, a search counts its matches up to 10,000 (ARTIKEL_EXACT_TOTAL) and says
//   total_exact: false past it;
// - exact: the same build counting every match (ARTIKEL_EXACT_TOTAL=10000000), as before.
//
// One server runs at a time (the file is served by one process); each round starts both, one after
// the other, the order turned each round. A figure is the median round's, the ratio the median of
// the rounds' ratios (exact p50 over bounded p50).
//
//   node bench/search-count.js [--articles 100000] [--duration 8] [--rounds 3] [--connections 20] [--skip-build]
//
// Targets (issue "Search"): uncached q p50 ≤ 10 ms at 100,000 articles, ≤ 25 ms at 1,000,000.

const { parseArgs } = require('./lib/args');
const { median, middleOf } = require('./lib/median');
const { runLoad } = require('./lib/load-client');
const { buildAndSeedSqlite, gitState, machine, say, writeLatestResults } = require('./lib/run-steps');
const { startApp, stopServer } = require('./lib/side-runs');

const { searchWordSample } = require('./lib/endpoints');

const VARIANTS = {
  bounded: {},
  exact: { ARTIKEL_EXACT_TOTAL: '10000000' },
};

/** @param {number} value */
const round2 = (value) => Math.round(value * 100) / 100;

async function main() {
  const options = parseArgs(process.argv.slice(2), {
    articles: 100000,
    duration: 8,
    rounds: 3,
    connections: 20,
    skipBuild: false,
  });
  const { createdAt, buildInfo, store } = await buildAndSeedSqlite(options);
  const paths = searchWordSample().map((word) => `/api/artikel?q=${encodeURIComponent(word)}`);
  say(
    `\n[search-count] our app, uncached, q over ${paths.length} words on ${options.articles.toLocaleString('en-US')} articles, ${options.connections} connections ...`,
  );
  /** @type {Array<Record<string, { p50: number, p99: number, rps: number, inexact: number }>>} */
  const rounds = [];
  for (let round = 0; round < options.rounds; round += 1) {
    /** @type {Record<string, { p50: number, p99: number, rps: number, inexact: number }>} */
    const measured = {};
    const order = round % 2 === 0 ? ['bounded', 'exact'] : ['exact', 'bounded'];
    for (const name of order) {
      const server = await startApp({
        store,
        name: `search-count-${name}`,
        extra: { ARTIKEL_READ_CACHE_MB: '0', ...VARIANTS[/** @type {keyof typeof VARIANTS} */ (name)] },
      });
      try {
        // How many of the words' totals are lower bounds on this server.
        let inexact = 0;
        for (const searchPath of paths) {
          const body = /** @type {any} */ (await (await fetch(`http://127.0.0.1:${server.port}${searchPath}`)).json());
          if (body.meta.pagination.total_exact === false) inexact += 1;
        }
        const result = await runLoad({
          ports: [server.port],
          paths,
          connections: options.connections,
          seconds: options.duration,
          warmupSeconds: 3,
          timeoutSeconds: 60,
          drainPath: '/api/artikel/latest',
        });
        if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        measured[name] = { p50: result.p50, p99: result.p99, rps: Math.round(result.rps), inexact };
        say(
          `  round ${round + 1}, ${name}: ${measured[name].rps} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms (${inexact} of ${paths.length} totals a lower bound)`,
        );
      } finally {
        await stopServer(server);
      }
    }
    rounds.push(measured);
  }
  const ratios = rounds.map((round) => round.exact.p50 / Math.max(round.bounded.p50, 0.1));
  const figures = {
    bounded: middleOf(rounds, (round) => round.bounded.p50).bounded,
    exact: middleOf(rounds, (round) => round.exact.p50).exact,
    p50Ratio: round2(median(ratios)),
    rpsRatio: round2(median(rounds.map((round) => round.bounded.rps / Math.max(round.exact.rps, 1)))),
    roundRatios: ratios.map(round2),
  };
  say(
    `\nbounded: ${figures.bounded.rps} req/s, p50 ${figures.bounded.p50} ms, p99 ${figures.bounded.p99} ms; exact: ${figures.exact.rps} req/s, p50 ${figures.exact.p50} ms, p99 ${figures.exact.p99} ms; p50 exact/bounded ×${figures.p50Ratio} (rounds ${figures.roundRatios.join(', ')}), req/s bounded/exact ×${figures.rpsRatio}`,
  );
  const results = {
    createdAt,
    git: gitState(),
    machine: machine(),
    build: buildInfo,
    articles: options.articles,
    connections: options.connections,
    durationSeconds: options.duration,
    rounds,
    figures,
  };
  writeLatestResults(`search-count-${options.articles}`, results);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
