// @ts-check
'use strict';

// The server's memory under a flood of distinct reads: our app (read cache at its default size, or
// --cache-mb) on the seeded file, first under the ordinary read mix, then 100,000 distinct searches
// (a crawler or an attacker: each a new cache entry; one in ten a pair of real words, matching many
// articles, the others words found nowhere) and 20,000 distinct article pages. The resident memory
// (RSS, and its peak since start, from /proc) is read after each step; then the sitemap's files,
// the largest answers the service builds (ARTIKEL_SITEMAP_URLS article pages each), are read at once and must
// list every published article; afterwards sampled answers are compared with the database: the
// cache must have given up entries, not correctness. The app runs with the Node options `npm start`
// gives it (V8's heap cap, package.json's config.heap_mb; a NODE_OPTIONS of the caller's wins).
//
//   node bench/memory.js [--articles 100000] [--searches 100000] [--slugs 20000] [--cache-mb 24] [--mmap-mb 0] [--skip-build]
//
// --mmap-mb sets DATABASE_SQLITE_MMAP_MB: SQLite's memory map of the file counts in RSS (as
// "mapped file") although the kernel can drop those pages at any time; 0 shows the process without it.

const path = require('node:path');
const Database = require('better-sqlite3');
const { parseArgs } = require('./lib/args');
const { endpointPlan, sampleRequests } = require('./lib/endpoints');
const { runLoad } = require('./lib/load-client');
const { readMixPaths } = require('./lib/read-mix');
const { buildAndSeedSqlite, gitState, machine, say } = require('./lib/run-steps');
const { RESULTS_DIR } = require('./lib/server-env');
const { memoryOf, startApp, stopServer } = require('./lib/side-runs');
const { indexCounts, publishedSlugs } = require('./lib/store');
const { writeFigures } = require('./lib/figures');
const { createArticleGenerator } = require('./lib/article-generator');
const { createRandom } = require('./lib/prng');
const { serviceNodeOptions } = require('../scripts/node-options');

const TARGET_PEAK_RSS_MB = 400;
const CHECKED_SLUGS = 200;
const CHECKED_SEARCHES = 50;

/** `count` distinct search strings: one in ten two real words (most pairs match articles), the rest words no article holds. */
function distinctSearches(count) {
  const words = createArticleGenerator().realWords.filter((word) => word.length >= 3);
  const random = createRandom(7);
  const seen = new Set();
  const searches = [];
  for (let i = 0; searches.length < count; i += 1) {
    const q = i % 10 === 0 ? `${random.pick(words)} ${random.pick(words)}` : `${random.pick(words)}zq${i.toString(36)}`;
    if (seen.has(q)) continue;
    seen.add(q);
    searches.push(q);
  }
  return searches;
}

/** Sampled answers against the database: each article's title, each search's total (the plugin's own FTS5 index, every word). */
async function checkAnswers(baseUrl, databaseFile, slugs, searches) {
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
  const wrong = [];
  let checked = 0;
  try {
    const titleOf = db.prepare('SELECT title FROM articles WHERE slug = ? AND published_at IS NOT NULL').pluck();
    for (const slug of slugs) {
      const response = await fetch(`${baseUrl}/api/artikel/${encodeURIComponent(slug)}`);
      /** @type {any} */
      const body = await response.json();
      checked += 1;
      if (response.status !== 200 || body.data.title !== titleOf.get(slug)) wrong.push(`${slug}: ${response.status} ${body.data?.title}`);
    }
    const countOf = db
      .prepare(
        `SELECT count(*) FROM articles a WHERE a.published_at IS NOT NULL AND a.document_id IN
      (SELECT d.document_id FROM artikel_search s JOIN artikel_search_docs d ON d.id = s.rowid WHERE artikel_search MATCH ?)`,
      )
      .pluck();
    for (const q of searches) {
      const response = await fetch(`${baseUrl}/api/artikel?q=${encodeURIComponent(q)}`);
      /** @type {any} */
      const body = await response.json();
      const expected = countOf.get(
        q
          .split(' ')
          .map((word) => `"${word}"`)
          .join(' AND '),
      );
      checked += 1;
      if (response.status !== 200 || body.meta.pagination.total !== expected)
        wrong.push(`q=${q}: ${response.status} total ${body.meta?.pagination?.total}, expected ${expected}`);
    }
  } finally {
    db.close();
  }
  return { checked, wrong: wrong.length, wrongAnswers: wrong.slice(0, 20) };
}

/** Reads /sitemap.xml and, when it is an index, each of its files once; how many files and article pages they hold. */
async function readSitemap(baseUrl) {
  const root = await (await fetch(`${baseUrl}/api/artikel/sitemap.xml`)).text();
  const files = [...root.matchAll(/<sitemap>\s*<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]).pathname);
  const texts = files.length === 0 ? [root] : await Promise.all(files.map(async (file) => (await fetch(`${baseUrl}${file}`)).text()));
  return { files: texts.length, articlePages: texts.reduce((sum, text) => sum + (text.match(/<url>/g) ?? []).length, 0) };
}

async function main() {
  const options = parseArgs(
    process.argv.slice(2),
    { articles: 100000, searches: 100000, slugs: 20000, cacheMb: 24, mmapMb: 0, connections: 20, mixSeconds: 15, skipBuild: false },
    { zeroAllowed: ['cacheMb', 'mmapMb'] },
  );
  const { createdAt, buildInfo, seedInfo, store } = await buildAndSeedSqlite(options);
  const samples = await sampleRequests(store);
  const plan = endpointPlan(samples);
  const slugs = await publishedSlugs(store, options.slugs);
  const searches = distinctSearches(options.searches);

  say(`\nStarting our app with a ${options.cacheMb} MB read cache on ${path.relative(process.cwd(), seedInfo.database)} ...`);
  const server = await startApp({
    store,
    name: 'memory',
    extra: { ARTIKEL_READ_CACHE_MB: String(options.cacheMb), DATABASE_SQLITE_MMAP_MB: String(options.mmapMb) },
  });
  const steps = [];
  /**
   * @param {string} label
   * @param {{ requests: number, rps: number, non2xx: number } | null} [load] load-worker.js's summary of a run
   */
  const step = (label, load = null) => {
    const memory = memoryOf(server.child.pid);
    steps.push({ label, memory, load });
    say(
      `[memory] ${label.padEnd(34)} RSS ${memory.rssMb} MB (heap and other ${memory.anonMb}, mapped file ${memory.fileMb}), peak ${memory.peakRssMb} MB${load ? ` · ${load.requests} requests, ${Math.round(load.rps)} req/s, ${load.non2xx} non-2xx` : ''}`,
    );
  };
  let correctness;
  let sitemap;
  try {
    const port = server.port;
    step('started');
    step(
      'read mix',
      await runLoad({
        ports: [port],
        paths: readMixPaths(plan, 'ours'),
        connections: options.connections,
        seconds: options.mixSeconds,
        warmupSeconds: 0,
        visitEveryPath: false,
      }),
    );
    step(
      `${searches.length.toLocaleString('en-US')} distinct searches`,
      await runLoad({
        ports: [port],
        paths: searches.map((q) => `/api/artikel?q=${encodeURIComponent(q)}`),
        connections: options.connections,
        onlyVisit: true,
      }),
    );
    step(
      `${slugs.length.toLocaleString('en-US')} distinct articles`,
      await runLoad({
        ports: [port],
        paths: slugs.map((slug) => `/api/artikel/${encodeURIComponent(slug)}`),
        connections: options.connections,
        onlyVisit: true,
      }),
    );
    sitemap = { ...(await readSitemap(`http://127.0.0.1:${port}`)), published: (await indexCounts(store)).published };
    step(`sitemap: ${sitemap.files} files, ${sitemap.articlePages.toLocaleString('en-US')} article pages`);
    step(
      'read mix again',
      await runLoad({
        ports: [port],
        paths: readMixPaths(plan, 'ours'),
        connections: options.connections,
        seconds: options.mixSeconds,
        warmupSeconds: 0,
        visitEveryPath: false,
      }),
    );
    const checkedSlugs = slugs.filter((_, i) => i % Math.max(1, Math.floor(slugs.length / CHECKED_SLUGS)) === 0).slice(0, CHECKED_SLUGS);
    const checkedSearches = searches.filter((q) => q.includes(' ')).slice(0, CHECKED_SEARCHES);
    correctness = await checkAnswers(`http://127.0.0.1:${port}`, seedInfo.database, checkedSlugs, checkedSearches);
    if (sitemap.articlePages !== sitemap.published) {
      correctness.wrong += 1;
      correctness.wrongAnswers.push(`sitemap: ${sitemap.articlePages} article pages, ${sitemap.published} published`);
    }
    say(`[memory] answers checked against the database after the flood: ${correctness.checked}, wrong: ${correctness.wrong}`);
    for (const line of correctness.wrongAnswers) say(`[memory]   ${line}`);
  } finally {
    await stopServer(server);
  }

  const peak = Math.max(...steps.map((s) => s.memory.peakRssMb));
  const results = {
    kind: 'memory',
    createdAt,
    options: {
      store: 'sqlite',
      articles: options.articles,
      searches: searches.length,
      slugs: slugs.length,
      cacheMb: options.cacheMb,
      mmapMb: options.mmapMb,
      connections: options.connections,
      nodeOptions: serviceNodeOptions(),
    },
    machine: machine(),
    app: gitState(),
    build: buildInfo,
    targets: { peakRssMb: TARGET_PEAK_RSS_MB },
    peakRssMb: peak,
    steps,
    sitemap,
    correctness,
  };
  const written = writeFigures(results, RESULTS_DIR, `memory-${options.articles}-cache${options.cacheMb}-mmap${options.mmapMb}`);
  say(
    `\nPeak RSS ${peak} MB (target under ${TARGET_PEAK_RSS_MB} MB). Wrote ${written.map((file) => path.relative(process.cwd(), file)).join(', ')}`,
  );
  if (correctness.wrong > 0) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
