// @ts-check
'use strict';

// What keeping revisions costs a write, and what they cost in storage (issue 36).
//
//   node bench/revision-cost.js [--articles 10000] [--rounds 7] [--per-round 30] [--concurrency 4] [--storage-articles 200] [--first-writes] [--skip-build]
//
// 1. Write cost: two servers of the same build run side by side on private copies of the seeded
//    file, one keeping revisions (the default) and one with ARTIKEL_REVISIONS_KEEP=0. In each round
//    each server gets --per-round PATCHes (a new summary and tags of a seeded published article,
//    published again) and as many POSTs, --concurrency at once, the servers' order turned each
//    round, so both are measured within the same seconds of this shared machine. A figure is the
//    median of the rounds; the ratio is the median of the rounds' own ratios. The articles a PATCH
//    edits have a revision already (an unmeasured PATCH each first), as every article written since
//    revisions exist has; --first-writes measures the first write of an article that has none,
//    which keeps its version before the write as a baseline too.
// 2. Storage: --storage-articles seeded articles get 10 PATCHes each on the server that keeps
//    revisions; the revision table's bytes (SQLite's dbstat, table and indexes) over its rows give
//    the bytes per revision, and from it the size at 10,000 articles × 10 revisions.
//
// Target: a write with its revision costs at most 10 % more than without.

const Database = require('better-sqlite3');
const { parseArgs } = require('./lib/args');
const { createArticleGenerator } = require('./lib/article-generator');
const { median } = require('./lib/median');
const { build, gitState, machine, say, seed, writeLatestResults } = require('./lib/run-steps');
const { createToken, percentile, privateCopy, startApp, stopServer } = require('./lib/side-runs');
const { CATEGORIES } = require('./lib/vocabulary');

const REVISIONS_PER_ARTICLE = 10;

/**
 * Published slugs of the seeded articles, newest first.
 * @returns {string[]}
 */
function publishedSlugs(file, count) {
  const db = new Database(file, { readonly: true });
  try {
    return /** @type {string[]} */ (
      db.prepare('SELECT slug FROM articles WHERE published_at IS NOT NULL ORDER BY id DESC LIMIT ?').pluck().all(count)
    );
  } finally {
    db.close();
  }
}

/** `count` requests, `concurrency` in flight: requests/s and latencies; any answer but the expected status fails the run. */
async function timed(count, concurrency, send) {
  const latencies = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      const n = next;
      next += 1;
      const begun = performance.now();
      await send(n);
      latencies.push(performance.now() - begun);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { perSecond: count / ((performance.now() - started) / 1000), p50Ms: Number(percentile(latencies, 50)) };
}

async function expectStatus(response, status) {
  const text = await response.text();
  if (response.status !== status) throw new Error(`${response.url} answered ${response.status}: ${text.slice(0, 300)}`);
}

/** Bytes of a table and its indexes in a SQLite file (dbstat). */
function tableBytes(file, table) {
  const db = new Database(file, { readonly: true });
  try {
    const names = [table, ...db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?").pluck().all(table)];
    const bytes = names.reduce(
      (sum, name) =>
        sum + /** @type {number} */ (db.prepare('SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name = ?').pluck().get(name)),
      0,
    );
    const rows = /** @type {number} */ (db.prepare(`SELECT count(*) FROM ${table}`).pluck().get());
    return { bytes, rows };
  } finally {
    db.close();
  }
}

async function main() {
  const options = parseArgs(process.argv.slice(2), {
    articles: 10000,
    rounds: 7,
    perRound: 30,
    concurrency: 4,
    storageArticles: 200,
    firstWrites: false,
    skipBuild: false,
  });
  const createdAt = new Date().toISOString();
  const buildInfo = build(options.skipBuild);
  const seedInfo = await seed(options.articles, 'sqlite');
  const generator = createArticleGenerator();
  const kinds = [
    { name: 'revisions', extra: {} },
    { name: 'none', extra: { ARTIKEL_REVISIONS_KEEP: '0' } },
  ];
  const needed = options.rounds * options.perRound + options.storageArticles;
  const servers = [];
  try {
    for (const kind of kinds) {
      const copy = privateCopy(seedInfo.database, `revision-cost-${kind.name}`);
      const token = createToken(copy.store, ['create', 'update']);
      const slugs = publishedSlugs(copy.store.file, needed);
      const server = await startApp({
        store: copy.store,
        name: `revision-cost-${kind.name}`,
        extra: { ARTIKEL_RATE_LIMIT: '0', ...kind.extra },
      });
      servers.push({ ...kind, copy, token, slugs, server, base: `http://127.0.0.1:${server.port}`, edited: 0, created: 0 });
    }

    // Every article a PATCH edits gets one revision first, unmeasured: the seeded articles have none,
    // and the first write of such an article keeps its current version as a baseline too (reported
    // apart: --first-writes measures that case instead).
    if (!options.firstWrites) {
      for (const server of servers) {
        const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${server.token}` };
        const slugs = server.slugs.slice(0, options.rounds * options.perRound);
        await timed(slugs.length, options.concurrency, async (n) => {
          await expectStatus(
            await fetch(`${server.base}/api/artikel/${encodeURIComponent(slugs[n])}`, {
              method: 'PATCH',
              headers,
              body: JSON.stringify({ meta_keywords: 'revision cost, warm-up' }),
            }),
            200,
          );
        });
      }
    }

    // 1. Write cost, interleaved.
    /** @type {Record<string, { patch: number[], post: number[], patchP50: number[], postP50: number[] }>} */
    const figures = Object.fromEntries(kinds.map((kind) => [kind.name, { patch: [], post: [], patchP50: [], postP50: [] }]));
    /** @type {{ patch: number[], post: number[] }} */
    const ratios = { patch: [], post: [] };
    for (let round = 0; round < options.rounds; round += 1) {
      const order = round % 2 === 0 ? servers : [...servers].reverse();
      const roundFigures = {};
      for (const server of order) {
        const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${server.token}` };
        const patch = await timed(options.perRound, options.concurrency, async (n) => {
          const article = generator.article(n + round * 1000, n + round * 1000 + 1);
          const slug = server.slugs[server.edited++];
          await expectStatus(
            await fetch(`${server.base}/api/artikel/${encodeURIComponent(slug)}`, {
              method: 'PATCH',
              headers,
              body: JSON.stringify({ summary: `Edited by the benchmark, round ${round}, ${n}`, tags: article.tags }),
            }),
            200,
          );
        });
        const post = await timed(options.perRound, options.concurrency, async (n) => {
          const article = generator.article(seedInfo.articles + n, seedInfo.articles + n + 1);
          server.created += 1;
          await expectStatus(
            await fetch(`${server.base}/api/artikel`, {
              method: 'POST',
              headers,
              body: JSON.stringify({
                title: `${article.title} (revision cost ${server.created})`,
                content: article.content,
                tags: article.tags,
                category: CATEGORIES[n % CATEGORIES.length].name,
              }),
            }),
            201,
          );
        });
        figures[server.name].patch.push(patch.perSecond);
        figures[server.name].post.push(post.perSecond);
        figures[server.name].patchP50.push(patch.p50Ms);
        figures[server.name].postP50.push(post.p50Ms);
        roundFigures[server.name] = { patch, post };
      }
      // Writes per second without revisions over with them: 1.10 means a write with its revision costs 10 % more.
      ratios.patch.push(roundFigures.none.patch.perSecond / roundFigures.revisions.patch.perSecond);
      ratios.post.push(roundFigures.none.post.perSecond / roundFigures.revisions.post.perSecond);
      say(
        `[revision-cost] round ${round + 1}: PATCH ${roundFigures.revisions.patch.perSecond.toFixed(1)} vs ${roundFigures.none.patch.perSecond.toFixed(1)}/s, POST ${roundFigures.revisions.post.perSecond.toFixed(1)} vs ${roundFigures.none.post.perSecond.toFixed(1)}/s (with vs without revisions)`,
      );
    }
    const cost = {
      patchPerSecond: { revisions: median(figures.revisions.patch), none: median(figures.none.patch) },
      postPerSecond: { revisions: median(figures.revisions.post), none: median(figures.none.post) },
      patchP50Ms: { revisions: median(figures.revisions.patchP50), none: median(figures.none.patchP50) },
      postP50Ms: { revisions: median(figures.revisions.postP50), none: median(figures.none.postP50) },
      patchCostRatio: median(ratios.patch),
      postCostRatio: median(ratios.post),
    };
    say(
      `[revision-cost] a PATCH with its revision costs ${cost.patchCostRatio.toFixed(3)}×, a POST ${cost.postCostRatio.toFixed(3)}× (median of ${options.rounds} rounds)`,
    );

    // 2. Storage: 10 revisions each for some seeded articles, on the server that keeps them.
    const keeping = servers[0];
    const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${keeping.token}` };
    const storageSlugs = keeping.slugs.slice(keeping.edited, keeping.edited + options.storageArticles);
    for (let version = 1; version < REVISIONS_PER_ARTICLE; version += 1) {
      await timed(storageSlugs.length, options.concurrency, async (n) => {
        await expectStatus(
          await fetch(`${keeping.base}/api/artikel/${encodeURIComponent(storageSlugs[n])}`, {
            method: 'PATCH',
            headers,
            body: JSON.stringify({ summary: `Version ${version} of the summary, written by the benchmark.` }),
          }),
          200,
        );
      });
    }
    await stopServer(keeping.server);
    const table = tableBytes(keeping.copy.store.file, 'artikel_revisions');
    const bytesPerRevision = table.bytes / table.rows;
    const storage = {
      revisions: table.rows,
      tableAndIndexBytes: table.bytes,
      bytesPerRevision: Math.round(bytesPerRevision),
      at10000x10Mb: Math.round((bytesPerRevision * 10_000 * REVISIONS_PER_ARTICLE) / 1e6),
    };
    say(
      `[revision-cost] storage: ${table.rows} revisions in ${(table.bytes / 1e6).toFixed(1)} MB, ${storage.bytesPerRevision} bytes each: ${storage.at10000x10Mb} MB at 10,000 articles × 10 revisions`,
    );

    const results = {
      kind: 'revision-cost',
      createdAt,
      options,
      machine: machine(),
      app: gitState(),
      build: buildInfo,
      seed: seedInfo,
      cost,
      storage,
    };
    writeLatestResults(`revision-cost-${options.articles}`, results);
    if (cost.patchCostRatio > 1.1 || cost.postCostRatio > 1.1) process.exitCode = 1;
  } finally {
    for (const server of servers) {
      await stopServer(server.server);
      server.copy.remove();
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
