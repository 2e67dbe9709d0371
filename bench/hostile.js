// @ts-check
'use strict';

// Whether one hostile request can hold the service: our app on a seeded SQLite file, and for each
// hostile request (searches that read every article, filtered lists whose counts grow with the
// archive, dry-run posts of the text patterns that were quadratic), a cached read sent again and
// again while the hostile request runs. Reports how long the cached reads waited (the target: at
// most 100 ms at 100,000 articles) and what the hostile request answered, and how long it took.
//
//   node bench/hostile.js [--articles 100000] [--repeat 3] [--skip-build]

const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('./lib/args');
const { build, gitState, machine, say, seed } = require('./lib/run-steps');
const { RESULTS_DIR } = require('./lib/server-env');
const { createToken, percentile, startApp, stopServer } = require('./lib/side-runs');
const { sqliteStore } = require('./lib/store');

const TARGET_MS = 100;
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

async function main() {
  const options = parseArgs(process.argv.slice(2), { articles: 100000, repeat: 3, skipBuild: false });
  const createdAt = new Date().toISOString();
  const buildInfo = build(options.skipBuild);
  const seedInfo = await seed(options.articles, 'sqlite');
  const store = sqliteStore(seedInfo.database);
  const token = createToken(store);
  const server = await startApp({ store, name: 'hostile', extra: { ARTIKEL_RATE_LIMIT: '0' } });
  const baseUrl = `http://127.0.0.1:${server.port}`;
  const headers = { Authorization: `Bearer ${token}` };
  const requests = [];
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
