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
//   node bench/search-ranking.js [--articles 100000] [--duration 5] [--connections 20] [--skip-build]
//
// Targets (issue 33): relevance p50 within 1.5× of newest for the same q; views within 1.3× of
// the list; the highlight adds at most 10 % to a search's p50.

const fs = require('node:fs');
const path = require('node:path');
const Database = require('better-sqlite3');
const { parseArgs } = require('./lib/args');
const { median } = require('./lib/median');
const { runLoad } = require('./lib/load-client');
const { build, gitState, machine, say, seed } = require('./lib/run-steps');
const { RESULTS_DIR } = require('./lib/server-env');
const { startApp, stopServer } = require('./lib/side-runs');
const { sqliteStore } = require('./lib/store');
const { searchWordSample } = require('./lib/endpoints');

const TARGETS = { relevance: 1.5, views: 1.3, highlight: 0.1 };

/** @param {number} value */
const round2 = (value) => Math.round(value * 100) / 100;

/**
 * @param {number} port
 * @param {string[]} paths
 * @param {{ connections: number, duration: number }} options
 */
async function p50Of(port, paths, options) {
  const result = await runLoad({ ports: [port], paths, connections: options.connections, seconds: options.duration, warmupSeconds: 1 });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${paths[0]}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { p50: result.p50, rps: Math.round(result.rps) };
}

async function main() {
  const options = parseArgs(process.argv.slice(2), { articles: 100000, duration: 5, connections: 20, skipBuild: false });
  const createdAt = new Date().toISOString();
  const buildInfo = build(options.skipBuild);
  const seedInfo = await seed(options.articles, 'sqlite');
  const store = sqliteStore(seedInfo.database);
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
      const total = /** @type {any} */ (await (await fetch(`${base}/api/artikel?q=${encodeURIComponent(word)}`)).json()).meta.pagination
        .total;
      const newest = await p50Of(server.port, [`/api/artikel?q=${encodeURIComponent(word)}`], options);
      const relevance = await p50Of(server.port, [`/api/artikel?q=${encodeURIComponent(word)}&sort=relevance`], options);
      figures[label] = { word, matches: total, newest, relevance, ratio: round2(relevance.p50 / Math.max(newest.p50, 0.1)) };
      say(`  q=${word} (${total} matches): newest p50 ${newest.p50} ms, relevance p50 ${relevance.p50} ms (×${figures[label].ratio})`);
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
    const list = await p50Of(server.port, ['/api/artikel'], options);
    const views = await p50Of(server.port, ['/api/artikel?sort=views'], options);
    figures.views = { list, views, ratio: round2(views.p50 / Math.max(list.p50, 0.1)) };
    say(`  list p50 ${list.p50} ms, sort=views p50 ${views.p50} ms (×${figures.views.ratio})`);

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
    targets: TARGETS,
    figures,
  };
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `latest-search-ranking-${options.articles}.json`);
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  say(`\nWrote ${path.relative(process.cwd(), file)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
