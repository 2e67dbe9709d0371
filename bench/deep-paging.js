// @ts-check
'use strict';

// What a page of the list costs deep in a large archive, reached the two ways a client can: along
// links.next (a signed cursor: a keyset page past the previous page's last article) and by
// ?page=N (OFFSET). Our app runs with its response cache off (ARTIKEL_READ_CACHE_MB=0), so every
// request is computed from the database, as a walk's pages are (each is new to the cache).
//
//   node bench/deep-paging.js [--articles 1000000] [--depth 10000] [--limit 50] [--samples 7] [--start-timeout S] [--skip-build]
//
// The app first builds its search and tag index of a newly seeded file (about 20 minutes at a
// million articles on 2 cores; kept in the file for later runs): --start-timeout (default 3 hours)
// bounds the wait.
//
// 1. The walk: from the first page along links.next for --depth pages, timing every page and
//    checking that no article comes twice and that the order never goes back.
// 2. Samples, interleaved: the cursor URLs the walk followed to pages 1, 10, 100, 1,000 and
//    --depth, and ?page= at the same depths, each requested --samples times in turn, so every
//    depth is measured within the same seconds on this shared machine. A figure is the median.
//
// Target (issue 37): a cursor page costs the same at page 10,000 as at page 1.

const { parseArgs } = require('./lib/args');
const { median } = require('./lib/median');
const { buildAndSeedSqlite, gitState, machine, say, writeLatestResults } = require('./lib/run-steps');
const { startApp, stopServer } = require('./lib/side-runs');

/** @param {string} url */
async function timedJson(url) {
  const started = performance.now();
  const response = await fetch(url);
  /** @type {any} */
  const body = await response.json();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return { body, ms };
}

const round1 = (value) => Math.round(value * 10) / 10;

async function main() {
  const options = parseArgs(process.argv.slice(2), {
    articles: 1000000,
    depth: 10000,
    limit: 50,
    samples: 7,
    startTimeout: 10800,
    skipBuild: false,
  });
  const { createdAt, buildInfo, seedInfo, store } = await buildAndSeedSqlite(options);
  say(`\n[deep-paging] starting our app, uncached, on ${options.articles.toLocaleString('en-US')} articles (waits for its index) ...`);
  const server = await startApp({
    store,
    name: 'deep-paging',
    extra: { ARTIKEL_READ_CACHE_MB: '0' },
    readyTimeoutMs: options.startTimeout * 1000,
  });
  const base = `http://127.0.0.1:${server.port}`;
  const depths = [1, 10, 100, 1000, options.depth].filter((depth, index, all) => depth <= options.depth && all.indexOf(depth) === index);
  try {
    // 1. The walk.
    /** @type {Map<number, string>} */
    const cursorUrls = new Map();
    /** @type {number[]} */
    const walkMs = [];
    const seen = new Set();
    let duplicates = 0;
    let outOfOrder = 0;
    let previousPublished = Infinity;
    let url = `${base}/api/artikel?limit=${options.limit}`;
    let total = 0;
    const walkStarted = Date.now();
    for (let page = 1; page <= options.depth; page += 1) {
      if (depths.includes(page)) cursorUrls.set(page, url);
      const { body, ms } = await timedJson(url);
      walkMs.push(ms);
      total = body.meta.pagination.total;
      for (const article of body.data) {
        if (seen.has(article.id)) duplicates += 1;
        seen.add(article.id);
        const published = Date.parse(article.published_at);
        if (published > previousPublished) outOfOrder += 1;
        previousPublished = published;
      }
      if (body.meta.pagination.page !== page) throw new Error(`page ${page} of the walk says it is page ${body.meta.pagination.page}`);
      if (page % 1000 === 0) say(`[deep-paging] walk: page ${page}, ${Math.round((Date.now() - walkStarted) / 1000)} s`);
      if (!body.links.next) {
        say(`[deep-paging] the list ended at page ${page}`);
        break;
      }
      url = new URL(body.links.next, base).href;
    }
    const walkPages = walkMs.length;
    const band = (from, to) => round1(median(walkMs.slice(from - 1, to)));
    const walk = {
      pages: walkPages,
      articles: seen.size,
      duplicates,
      outOfOrder,
      seconds: Math.round((Date.now() - walkStarted) / 1000),
      p50Pages1To100Ms: band(1, 100),
      p50LastHundredPagesMs: band(Math.max(1, walkPages - 99), walkPages),
    };
    say(`[deep-paging] walk: ${JSON.stringify(walk)}`);

    // 2. Interleaved samples at each depth, by cursor and by number.
    /** @type {Record<string, number[]>} */
    const samples = {};
    const reachable = depths.filter((depth) => cursorUrls.has(depth));
    for (let round = 0; round < options.samples; round += 1) {
      for (const depth of reachable) {
        const byCursor = /** @type {string} */ (cursorUrls.get(depth));
        const byNumber = `${base}/api/artikel?limit=${options.limit}&page=${depth}`;
        for (const [kind, sampleUrl] of [
          ['cursor', byCursor],
          ['page', byNumber],
        ]) {
          const { ms } = await timedJson(sampleUrl);
          (samples[`${kind}:${depth}`] ??= []).push(ms);
        }
      }
    }
    const byDepth = reachable.map((depth) => ({
      page: depth,
      cursorP50Ms: round1(median(samples[`cursor:${depth}`])),
      pageNumberP50Ms: round1(median(samples[`page:${depth}`])),
    }));
    for (const row of byDepth) say(`[deep-paging] page ${row.page}: by cursor ${row.cursorP50Ms} ms, by ?page= ${row.pageNumberP50Ms} ms`);
    const first = byDepth[0];
    const deepest = byDepth[byDepth.length - 1];
    const ratios = {
      cursorDeepestOverFirst: round1(deepest.cursorP50Ms / first.cursorP50Ms),
      pageNumberDeepestOverFirst: round1(deepest.pageNumberP50Ms / first.pageNumberP50Ms),
      walkLastHundredOverFirstHundred: round1(walk.p50LastHundredPagesMs / walk.p50Pages1To100Ms),
    };
    say(`[deep-paging] ratios: ${JSON.stringify(ratios)}`);

    const results = {
      createdAt,
      options,
      machine: machine(),
      app: gitState(),
      build: buildInfo,
      seed: seedInfo,
      listTotal: total,
      walk,
      byDepth,
      ratios,
    };
    writeLatestResults(`deep-paging-${options.articles}`, results);
  } finally {
    await stopServer(server);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
