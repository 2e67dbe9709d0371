// @ts-check
'use strict';

// Whether one hostile request can hold the service: our app on a seeded SQLite file, and for each
// hostile request (searches that read every article, filtered lists whose counts grow with the
// archive, dry-run posts of the text patterns that were quadratic), a cached read sent again and
// again while the hostile request runs. Reports how long the cached reads waited (the target: at
// most 100 ms at 100,000 articles) and what the hostile request answered, and how long it took.
//
// Then a flood (issue "Search"): --flooders connections from one address send the costliest
// searches they can (ten short words, sort=relevance, distinct each time) for --flood-seconds,
// while another client (a read token: a line of its own) sends plain uncached searches one at a
// time and the cached read is sent beside them. Reports the other client's p50/p99 (target: p99 at
// most 250 ms at 100,000 articles), the cached read's, and what the flood was answered.
//
//   node bench/hostile.js [--articles 100000] [--repeat 3] [--flooders 8] [--flood-seconds 20] [--skip-build]

const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('./lib/args');
const { buildAndSeedSqlite, gitState, machine, say } = require('./lib/run-steps');
const { RESULTS_DIR } = require('./lib/server-env');
const { createToken, percentile, startApp, stopServer } = require('./lib/side-runs');

const { searchWordSample } = require('./lib/endpoints');
const { createArticleGenerator } = require('./lib/article-generator');

const TARGET_MS = 100;
const FLOOD_TARGET_MS = 250;
const CACHED_READ = '/api/artikel/categories';

/** The hostile requests, each as an anonymous visitor (searches, lists) or a token's dry run would send it. */
function hostileRequests(category) {
  const dryRun = (label, content) => ({
    label,
    method: 'POST',
    path: '/api/artikel?dry_run=true',
    body: { title: 'Uji', category: 'Uji', content },
  });
  return [
    { label: 'q: six letters outside ASCII and a control character', path: `/api/artikel?q=${encodeURIComponent('äöüéèà\u0001')}` },
    { label: 'q: three such words', path: `/api/artikel?q=${encodeURIComponent('äöüéèà\u0001 ëïâêîô\u0001 ñçøåæœ\u0001')}` },
    { label: 'q: two-letter words (read from every article)', path: '/api/artikel?q=of%20in' },
    { label: 'q: one letter', path: '/api/artikel?q=x' },
    {
      label: 'q: 1,200 two-letter words',
      path: `/api/artikel?q=${Array.from({ length: 1200 }, (_unused, index) => index.toString(36).padStart(2, 'a').slice(-2)).join('%20')}`,
    },
    { label: 'q: ten common words', path: '/api/artikel?q=light%20the%20and%20of%20camera%20lens%20frame%20story%20moment%20colour' },
    { label: 'q: a common word, most relevant first', path: '/api/artikel?q=light&sort=relevance' },
    {
      label: 'q: ten common words, most relevant first',
      path: '/api/artikel?q=light%20the%20and%20of%20camera%20lens%20frame%20story%20moment%20colour&sort=relevance',
    },
    { label: 'tag, most read first', path: '/api/artikel?tag=portrait&sort=views' },
    { label: 'kategori (its count)', path: `/api/artikel?kategori=${category}` },
    { label: 'kategori, page 200 (a deep walk)', path: `/api/artikel?kategori=${category}&page=200` },
    { label: 'tag (its count)', path: '/api/artikel?tag=portrait' },
    dryRun('dry run: 48 KB of "‹"', '‹'.repeat(48_000)),
    dryRun('dry run: "a" × 32k + ".x"', `${'a'.repeat(32_000)}.x`),
    dryRun('dry run: "](" × 8k', ']('.repeat(8_000)),
    dryRun('dry run: "<a " × 8k', '<a '.repeat(8_000)),
  ];
}

/**
 * One cached read, timed from `sent`. A server that held its event loop for longer than its
 * keep-alive timeout closes the idle connection the read went out on as soon as it runs again:
 * the read is sent again on a new one, and its wait counts from the first try.
 */
async function cachedRead(baseUrl, sent) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const response = await fetch(`${baseUrl}${CACHED_READ}`);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${CACHED_READ} answered ${response.status}`);
      return performance.now() - sent;
    } catch (error) {
      if (attempt >= 3 || /** @type {any} */ (error).cause?.code !== 'ECONNRESET') throw error;
    }
  }
}

/**
 * Sends the hostile request once, reading the cached endpoint back to back until it has answered.
 * Each round asks for another page size, so that no round is answered from the read cache.
 */
async function underAttack(baseUrl, headers, request, round) {
  const started = performance.now();
  let done = false;
  const url = request.method === 'POST' ? request.path : `${request.path}${request.path.includes('?') ? '&' : '?'}limit=${41 + round}`;
  const hostile = fetch(`${baseUrl}${url}`, {
    method: request.method ?? 'GET',
    headers: request.body === undefined ? {} : { ...headers, 'Content-Type': 'application/json' },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  }).then(async (response) => {
    await response.arrayBuffer();
    done = true;
    return { status: response.status, ms: performance.now() - started };
  });
  const waits = [];
  // The first cached read is sent once the hostile request has reached the server.
  await new Promise((resolve) => setTimeout(resolve, 5));
  while (!done) {
    const sent = performance.now();
    waits.push(await cachedRead(baseUrl, sent));
  }
  return { ...(await hostile), waits };
}

/** Milliseconds of one GET, with its status. */
async function timedGet(url, headers = {}) {
  const sent = performance.now();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - sent };
}

/**
 * The flood: `flooders` connections of one client sending distinct costly searches, while another
 * client (with a token: its own line) searches one word at a time, uncached (a page size of its
 * own each time), and the cached read is sent beside it.
 */
async function flood(baseUrl, readToken, { flooders, seconds }) {
  const shortWords = [
    ...new Set(
      createArticleGenerator()
        .realWords.map((word) => word.slice(0, 3))
        .filter((word) => word.length === 3),
    ),
  ];
  const words = searchWordSample();
  let stop = false;
  let sent = 0;
  const floodStatuses = /** @type {Record<string, number>} */ ({});
  const flooder = async (index) => {
    for (let n = 0; !stop; n += 1) {
      const picked = Array.from({ length: 10 }, (_unused, k) => shortWords[(index * 7919 + n * 104729 + k * 31) % shortWords.length]);
      sent += 1;
      const { status } = await timedGet(`${baseUrl}/api/artikel?q=${picked.join('%20')}&sort=relevance&limit=${1 + (n % 50)}`);
      floodStatuses[status] = (floodStatuses[status] ?? 0) + 1;
    }
  };
  const other = {
    searches: /** @type {number[]} */ ([]),
    cached: /** @type {number[]} */ ([]),
    statuses: /** @type {Record<string, number>} */ ({}),
  };
  const otherClient = async () => {
    for (let n = 0; !stop; n += 1) {
      const search = await timedGet(`${baseUrl}/api/artikel?q=${encodeURIComponent(words[n % words.length])}&limit=${1 + (n % 97)}`, {
        Authorization: `Bearer ${readToken}`,
      });
      other.statuses[search.status] = (other.statuses[search.status] ?? 0) + 1;
      if (search.status === 200) other.searches.push(search.ms);
      const cached = await timedGet(`${baseUrl}${CACHED_READ}`);
      if (cached.status === 200) other.cached.push(cached.ms);
    }
  };
  const running = [...Array.from({ length: flooders }, (_unused, index) => flooder(index)), otherClient()];
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  stop = true;
  await Promise.all(running);
  return {
    flooders,
    seconds,
    floodRequests: sent,
    floodStatuses,
    otherStatuses: other.statuses,
    otherSearches: other.searches.length,
    otherSearchP50Ms: percentile(other.searches, 50),
    otherSearchP99Ms: percentile(other.searches, 99),
    cachedP99Ms: percentile(other.cached, 99),
    targetMs: FLOOD_TARGET_MS,
  };
}

async function main() {
  const options = parseArgs(process.argv.slice(2), { articles: 100000, repeat: 3, flooders: 8, floodSeconds: 20, skipBuild: false });
  const { createdAt, buildInfo, seedInfo, store } = await buildAndSeedSqlite(options);
  const token = createToken(store);
  const server = await startApp({ store, name: 'hostile', extra: { ARTIKEL_RATE_LIMIT: '0' } });
  const baseUrl = `http://127.0.0.1:${server.port}`;
  const headers = { Authorization: `Bearer ${token}` };
  const requests = [];
  /** @type {Awaited<ReturnType<typeof flood>> | undefined} */
  let floodFigures;
  try {
    /** @type {any} */
    const categories = await (await fetch(`${baseUrl}${CACHED_READ}`)).json();
    for (const request of hostileRequests(categories.data[0].slug)) {
      const rounds = [];
      for (let round = 0; round < options.repeat; round += 1) rounds.push(await underAttack(baseUrl, headers, request, round));
      const waits = rounds.flatMap((run) => run.waits);
      const figures = {
        label: request.label,
        statuses: [...new Set(rounds.map((run) => run.status))],
        hostileMs: rounds.map((run) => Math.round(run.ms)),
        cachedReads: waits.length,
        cachedMaxMs: waits.length === 0 ? null : Math.round(Math.max(...waits)),
        cachedP50Ms: waits.length === 0 ? null : percentile(waits, 50),
      };
      requests.push(figures);
      say(
        `[hostile] ${figures.label}: ${figures.statuses.join('/')} in ${figures.hostileMs.join(', ')} ms; cached read max ${figures.cachedMaxMs ?? '-'} ms over ${figures.cachedReads} reads (target ${TARGET_MS} ms)`,
      );
    }
    const flooded = await flood(baseUrl, createToken(store), { flooders: options.flooders, seconds: options.floodSeconds });
    floodFigures = flooded;
    say(
      `[hostile] ${flooded.flooders} connections flooding costly searches for ${flooded.seconds} s (${flooded.floodRequests} sent, answered ${JSON.stringify(flooded.floodStatuses)}): another client's uncached search p50 ${flooded.otherSearchP50Ms} ms, p99 ${flooded.otherSearchP99Ms} ms over ${flooded.otherSearches} (target p99 ${FLOOD_TARGET_MS} ms; answered ${JSON.stringify(flooded.otherStatuses)}); cached read p99 ${flooded.cachedP99Ms} ms`,
    );
  } finally {
    await stopServer(server);
  }
  const worst = Math.max(...requests.map((request) => request.cachedMaxMs ?? 0));
  say(`[hostile] longest wait of a cached read: ${worst} ms (target ${TARGET_MS} ms)`);
  const results = {
    kind: 'hostile',
    createdAt,
    options,
    machine: machine(),
    app: gitState(),
    build: buildInfo,
    seed: seedInfo,
    targetMs: TARGET_MS,
    worstCachedMs: worst,
    requests,
    flood: floodFigures ?? null,
  };
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const name = `hostile-${options.articles}`;
  // The latest figures only: earlier runs are in git's history.
  fs.writeFileSync(path.join(RESULTS_DIR, `latest-${name}.json`), `${JSON.stringify(results, null, 2)}\n`);
  say(`[hostile] results in bench/results/latest-${name}.json`);
  if (worst > TARGET_MS) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
