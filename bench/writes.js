// @ts-check
'use strict';

// Writes: articles created and published per second, one at a time and --concurrency at once.
//   ours:  POST /api/artikel with an API token (validation, defaults, slug, category, indexes).
//   patch: PATCH /api/artikel/{slug} of seeded published articles (a new summary and tags: the
//          update, the re-publish, indexes and caches), beside POST on the same server build.
//   stock: POST /api/articles on stock Strapi's REST API, which creates and publishes (the same app
//          and data; bench/stock-strapi.js with STOCK_WRITES=1; our Document Service middlewares
//          run there too, as they would for any write of the app), with a custom API token that
//          may create articles: both sides authenticate each write the way an automation tool does.
//   raw:   the rows alone (draft row, published row, their category links) inserted with
//          better-sqlite3, one transaction per article: what the storage costs, without HTTP
//          (SQLite only).
// Each server runs on its own private copy of the seeded data: a copy of the SQLite file, or on
// PostgreSQL (--store postgres, a throwaway cluster as bench/run.js starts) a database made from the
// seeded one as its template. The servers run at once and are measured in --rounds rounds (see
// measureAll), each round every server's --sequential writes one at a time, then its --concurrent
// with --concurrency in flight. The number of articles stored afterwards is checked against the 2xx
// answers.
//
//   node bench/writes.js [--store sqlite|postgres] [--articles 10000] [--sequential 100] [--concurrent 300] [--concurrency 10] [--rounds 3] [--skip-build]

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const Database = require('better-sqlite3');
const { parseArgs } = require('./lib/args');
const { createArticleGenerator } = require('./lib/article-generator');
const { build, gitState, machine, say, seed } = require('./lib/run-steps');
const { prepareInserts } = require('./lib/seed-layout');
const { BENCH_DIR, RESULTS_DIR } = require('./lib/server-env');
const { startCluster, stopCluster } = require('./lib/pg-cluster');
const { STORES, postgresStore, withPostgres } = require('./lib/store');
const { createToken, percentile, privateCopy, startApp, stopServer } = require('./lib/side-runs');
const { writeFigures } = require('./lib/figures');
const { CATEGORIES } = require('./lib/vocabulary');

/** The n-th new article: generated text beyond the seeded ones, so titles and slugs are new. */
function newArticle(generator, n, seeded) {
  const article = generator.article(seeded + n, seeded + n + 1);
  return {
    title: `${article.title} (write ${n})`,
    content: article.content,
    tags: article.tags,
    category: CATEGORIES[n % CATEGORIES.length].name,
  };
}

/** `count` requests, `concurrency` in flight; articles/s over the whole run and each request's latency. */
async function timedRequests(count, concurrency, send) {
  const latencies = [];
  let failed = 0;
  let next = 0;
  const failures = [];
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      const n = next;
      next += 1;
      const begun = performance.now();
      const outcome = await send(n);
      latencies.push(performance.now() - begun);
      if (!outcome.ok) {
        failed += 1;
        if (failures.length < 5) failures.push(outcome.detail);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  return {
    count,
    concurrency,
    seconds,
    perSecond: (count - failed) / seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    failed,
    failures,
  };
}

async function post(url, headers, body, okStatus) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { ok: response.status === okStatus, detail: `${response.status} ${text.slice(0, 200)}` };
}

/**
 * One number or column read from the store: the same SQL on SQLite (better-sqlite3, read-only) and
 * PostgreSQL (pg); `params` fill the `?` (PostgreSQL's `$1`, ...).
 * @param {{ kind: string, file?: string, connection?: object }} store
 * @param {string} sql
 * @param {unknown[]} params
 * @param {'one' | 'column'} shape
 */
async function readStore(store, sql, params, shape) {
  if (store.kind === 'sqlite') {
    const db = new Database(/** @type {string} */ (store.file), { readonly: true });
    try {
      const statement = db.prepare(sql).pluck();
      return shape === 'one' ? statement.get(...params) : statement.all(...params);
    } finally {
      db.close();
    }
  }
  let n = 0;
  const text = sql.replace(/\?/g, () => `$${(n += 1)}`);
  return withPostgres(store, async (client) => {
    const { rows } = await client.query({ text, values: params, rowMode: 'array' });
    return shape === 'one' ? rows[0]?.[0] : rows.map((row) => row[0]);
  });
}

/** @param {{ kind: string }} store */
const publishedCount = async (store) =>
  Number(await readStore(store, 'SELECT count(*) FROM articles WHERE published_at IS NOT NULL', [], 'one'));

/**
 * Published slugs of the seeded articles, newest first: the articles a PATCH run edits, one each.
 * @param {{ kind: string }} store
 * @param {number} count
 */
const publishedSlugs = async (store, count) =>
  /** @type {string[]} */ (
    await readStore(store, 'SELECT slug FROM articles WHERE published_at IS NOT NULL ORDER BY id DESC LIMIT ?', [count], 'column')
  );

/**
 * Published articles whose summary a PATCH run wrote.
 * @param {{ kind: string }} store
 */
const editedCount = async (store) =>
  Number(
    await readStore(
      store,
      "SELECT count(*) FROM articles WHERE published_at IS NOT NULL AND summary LIKE 'Edited by the benchmark %'",
      [],
      'one',
    ),
  );

/**
 * A private copy of the seeded data for one server's writes, removed by `remove()`: the SQLite
 * file copied, or a PostgreSQL database made with the seeded one as its template (no server may be
 * connected to the template meanwhile: every copy is made before the servers start).
 */
async function storeCopy(seedInfo, seededStore, name) {
  if (seededStore.kind === 'sqlite') return privateCopy(seedInfo.database, `writes-${name}`);
  const database = `writes_${name}`;
  const admin = { ...seededStore, connection: { ...seededStore.connection, database: 'postgres' } };
  const template = seededStore.connection.database;
  await withPostgres(admin, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${database}`);
    await client.query(`CREATE DATABASE ${database} TEMPLATE ${template}`);
  });
  return {
    store: { ...seededStore, connection: { ...seededStore.connection, database } },
    remove: () => withPostgres(admin, (client) => client.query(`DROP DATABASE IF EXISTS ${database}`)),
  };
}

/**
 * One server of the run, started on its own copy of the seeded data: `send()` makes its next
 * write, `count` reads what it stored.
 */
async function startWriter({ name, label, copy, seedInfo, start, request, count = publishedCount }) {
  const before = await count(copy.store);
  const started = await start(copy.store);
  const generator = createArticleGenerator();
  let written = 0;
  const baseUrl = `http://127.0.0.1:${started.server.port}`;
  const send = () => request(baseUrl, started, newArticle(generator, (written += 1), seedInfo.articles), written);
  return { name, label, copy, before, started, send, count, rounds: { sequential: [], concurrent: [] } };
}

/** A round's windows of one writer: `sequential` writes one at a time, then `concurrent` with `concurrency` in flight. */
async function measureRound(writer, options, round) {
  for (const [mode, count, concurrency] of /** @type {[ 'sequential' | 'concurrent', number, number][]} */ ([
    ['sequential', options.sequential, 1],
    ['concurrent', options.concurrent, options.concurrency],
  ])) {
    const run = await timedRequests(count, concurrency, writer.send);
    writer.rounds[mode].push(run);
    say(
      `[${writer.name}] round ${round}, ${concurrency === 1 ? 'one at a time' : `${concurrency} at once`}: ${run.perSecond.toFixed(1)} articles/s, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms${run.failed ? `, ${run.failed} failed: ${run.failures.join(' | ')}` : ''}`,
    );
  }
}

/** The median of numbers (the lower middle one of an even count). */
const medianOf = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

/** A writer's figure for a mode: its median round by articles/s, with every round's rate. */
function medianRound(runs) {
  const rate = medianOf(runs.map((run) => run.perSecond));
  const run = runs.find((candidate) => candidate.perSecond === rate);
  return { ...run, roundsPerSecond: runs.map((candidate) => Number(candidate.perSecond.toFixed(2))) };
}

/** Stops a writer, checks what it stored against its 2xx answers and removes its copy. */
async function finishWriter(writer) {
  await stopServer(writer.started.server);
  const answered = ['sequential', 'concurrent'].reduce(
    (sum, mode) => sum + writer.rounds[mode].reduce((modeSum, run) => modeSum + run.count - run.failed, 0),
    0,
  );
  const stored = (await writer.count(writer.copy.store)) - writer.before;
  say(`[${writer.name}] published articles ${writer.name === 'patch' ? 'edited' : 'added'}: ${stored} (2xx answers: ${answered})`);
  await writer.copy.remove();
  return {
    label: writer.label,
    sequential: medianRound(writer.rounds.sequential),
    concurrent: medianRound(writer.rounds.concurrent),
    stored,
    answered,
  };
}

/** The rows alone, one transaction per article, on a private copy. */
function measureRaw({ seedInfo, count }) {
  const copy = privateCopy(seedInfo.database, 'writes-raw');
  const db = new Database(copy.store.file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    const categories = CATEGORIES.map(
      (category) =>
        /** @type {{ id: number, locale: string } | undefined} */ (
          db.prepare('SELECT id, locale FROM categories WHERE slug = ?').get(category.slug)
        ),
    );
    const insert = prepareInserts(db);
    const generator = createArticleGenerator();
    const latencies = [];
    const started = performance.now();
    for (let n = 1; n <= count; n += 1) {
      const begun = performance.now();
      const generated = generator.article(seedInfo.articles + n, seedInfo.articles + n + 1);
      // A fresh generator repeats the seeded titles: the slug gets a suffix, and the dates are now.
      const now = Date.now();
      const article = { ...generated, slug: `${generated.slug}-write-${n}`, createdAt: now, updatedAt: now, publishedAt: now };
      const category = /** @type {{ id: number, locale: string }} */ (categories[n % categories.length]);
      db.transaction(() => insert(article, category.id, category.locale))();
      latencies.push(performance.now() - begun);
    }
    const seconds = (performance.now() - started) / 1000;
    const run = {
      count,
      concurrency: 1,
      seconds,
      perSecond: count / seconds,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      failed: 0,
      failures: [],
    };
    say(`[raw] ${count} articles one at a time: ${run.perSecond.toFixed(0)} articles/s, p50 ${run.p50Ms} ms`);
    return { label: 'raw insert (rows only, no HTTP)', sequential: run };
  } finally {
    db.close();
    copy.remove();
  }
}

/**
 * Every server's run on the seeded store: ours, PATCH and stock, all started (each on its own copy)
 * and then measured in rounds, each round every server's windows once, the order turned by one
 * server per round (as bench/run.js measures reads): one after the other, a server's figure moved
 * by a fifth with what else the two cores did. A figure is the server's median round, a ratio the
 * median of the rounds' own ratios. On SQLite, the raw rows after.
 */
async function measureAll({ options, seedInfo, seededStore }) {
  const common = { seedInfo };
  const definitions = [];

  definitions.push({
    ...common,
    name: 'ours',
    label: 'POST /api/artikel (ours)',
    start: async (store) => {
      const token = createToken(store);
      const server = await startApp({ store, name: 'writes-ours', extra: { ARTIKEL_RATE_LIMIT: '0' } });
      return { server, headers: { Authorization: `Bearer ${token}` } };
    },
    request: (baseUrl, { headers }, article) => post(`${baseUrl}/api/artikel`, headers, article, 201),
  });

  definitions.push({
    ...common,
    name: 'patch',
    label: 'PATCH /api/artikel/{slug} (ours)',
    count: editedCount,
    start: async (store) => {
      const token = createToken(store, ['update']);
      const slugs = await publishedSlugs(store, (options.sequential + options.concurrent) * options.rounds);
      const server = await startApp({ store, name: 'writes-patch', extra: { ARTIKEL_RATE_LIMIT: '0' } });
      return { server, headers: { Authorization: `Bearer ${token}` }, slugs };
    },
    // The n-th request edits the n-th newest article: a new summary and new tags, published at once.
    request: async (baseUrl, { headers, slugs }, article, n) => {
      const response = await fetch(`${baseUrl}/api/artikel/${encodeURIComponent(slugs[n - 1])}`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify({ summary: `Edited by the benchmark ${n}`, tags: article.tags }),
      });
      const text = await response.text();
      return { ok: response.status === 200, detail: `${response.status} ${text.slice(0, 200)}` };
    },
  });

  definitions.push({
    ...common,
    name: 'stock',
    label: 'stock Strapi POST /api/articles',
    start: async (store) => {
      const tokenFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'stock-token-')), 'token');
      const server = await startApp({
        store,
        name: 'writes-stock',
        args: [path.join(BENCH_DIR, 'stock-strapi.js')],
        readyPath: '/api/categories',
        extra: { ARTIKEL_BENCHMARK: 'stock-rest', STOCK_WRITES: '1', STOCK_TOKEN_FILE: tokenFile },
      });
      /** @type {any} */
      const categories = await (await fetch(`http://127.0.0.1:${server.port}/api/categories?pagination[pageSize]=100`)).json();
      const categoryIds = new Map(categories.data.map((category) => [category.name, category.documentId]));
      const token = fs.readFileSync(tokenFile, 'utf8');
      fs.rmSync(path.dirname(tokenFile), { recursive: true, force: true });
      return { server, headers: { Authorization: `Bearer ${token}` }, categoryIds };
    },
    // Stock takes the category as a relation (its documentId), the rest as the same fields.
    request: (baseUrl, { headers, categoryIds }, article) =>
      post(
        `${baseUrl}/api/articles`,
        headers,
        { data: { title: article.title, content: article.content, tags: article.tags, category: categoryIds.get(article.category) } },
        201,
      ),
  });

  // Every copy before any server starts: on PostgreSQL a copy is made from the seeded database as
  // a template, which no server may be connected to meanwhile.
  const copies = [];
  for (const definition of definitions) copies.push(await storeCopy(seedInfo, seededStore, definition.name));
  /** @type {Awaited<ReturnType<typeof startWriter>>[]} */
  const writers = [];
  const servers = {};
  try {
    for (const [index, definition] of definitions.entries()) {
      say(`\n[${definition.name}] starting ...`);
      writers.push(await startWriter({ ...common, ...definition, copy: copies[index] }));
    }
    for (let round = 1; round <= options.rounds; round += 1) {
      const turned = writers.map((_unused, index) => writers[(index + round - 1) % writers.length]);
      for (const writer of turned) await measureRound(writer, options, round);
    }
  } finally {
    for (const writer of writers) servers[writer.name] = await finishWriter(writer);
    for (const copy of copies.slice(writers.length)) await copy.remove();
  }
  const ratios = {};
  for (const mode of ['sequential', 'concurrent']) {
    const rounds = servers.ours[mode].roundsPerSecond.map((rate, index) => rate / servers.stock[mode].roundsPerSecond[index]);
    ratios[mode] = { oursToStock: Number(medianOf(rounds).toFixed(3)), rounds: rounds.map((ratio) => Number(ratio.toFixed(3))) };
  }
  if (seededStore.kind === 'sqlite') servers.raw = measureRaw({ seedInfo, count: options.raw });
  else say('[raw] skipped on PostgreSQL: the raw rows are inserted with better-sqlite3 into a SQLite file.');
  return { servers, ratios };
}

/** Seeds the store (SQLite: the file under bench/.data/, reused; PostgreSQL: a throwaway cluster, stopped afterwards) and measures on it. */
async function withSeededStore(options, measure) {
  if (options.store === 'sqlite') {
    const seedInfo = await seed(options.articles, 'sqlite');
    return measure(seedInfo, { kind: 'sqlite', file: seedInfo.database });
  }
  say('\nPostgreSQL: starting a throwaway cluster (scripts/postgres-cluster.sh) ...');
  const cluster = startCluster();
  const stop = () => {
    stopCluster(cluster.dir);
    process.exit(130);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const seedInfo = await seed(options.articles, 'postgres', cluster.env);
    return await measure(seedInfo, postgresStore(cluster.env));
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    stopCluster(cluster.dir);
  }
}

async function main() {
  const options = parseArgs(process.argv.slice(2), {
    store: 'sqlite',
    articles: 10000,
    sequential: 100,
    concurrent: 300,
    concurrency: 10,
    rounds: 3,
    raw: 1000,
    skipBuild: false,
  });
  if (!STORES.includes(options.store)) throw new Error(`--store takes ${STORES.join(' or ')}`);
  const createdAt = new Date().toISOString();
  const buildInfo = build(options.skipBuild);
  const { measured, version } = await withSeededStore(options, async (seedInfo, seededStore) => ({
    measured: await measureAll({ options, seedInfo, seededStore }),
    version:
      seededStore.kind === 'postgres'
        ? await withPostgres(seededStore, async (client) => (await client.query('SHOW server_version')).rows[0].server_version)
        : null,
  }));

  const results = {
    kind: 'writes',
    createdAt,
    options: {
      store: options.store,
      articles: options.articles,
      sequential: options.sequential,
      concurrent: options.concurrent,
      concurrency: options.concurrency,
      rounds: options.rounds,
      ...(options.store === 'sqlite' ? { raw: options.raw } : {}),
    },
    ...(version === null
      ? {}
      : { store: { kind: 'postgres', version, cluster: 'throwaway, started for this run (scripts/postgres-cluster.sh: fsync off)' } }),
    machine: machine(),
    app: gitState(),
    build: buildInfo,
    servers: measured.servers,
    ratios: measured.ratios,
  };
  const { servers, ratios } = measured;
  const suffix = options.store === 'sqlite' ? '' : `-${options.store}`;
  const written = writeFigures(results, RESULTS_DIR, `writes-${options.articles}${suffix}`);
  say(`\nWrote ${written.map((file) => path.relative(process.cwd(), file)).join(', ')}`);
  const ratio = (mode) =>
    `${ratios[mode].oursToStock.toFixed(2)} (rounds ${ratios[mode].rounds.map((value) => value.toFixed(2)).join(', ')})`;
  say(
    `ours/stock, the median of the rounds' ratios: ${ratio('sequential')} one at a time, ${ratio('concurrent')} with ${options.concurrency} at once`,
  );
  say(
    `PATCH beside POST: ${(servers.patch.concurrent.perSecond / servers.ours.concurrent.perSecond).toFixed(2)}× the articles/s (${servers.patch.concurrent.perSecond.toFixed(1)} vs ${servers.ours.concurrent.perSecond.toFixed(1)}, ${options.concurrency} at once)`,
  );
  if (['ours', 'patch', 'stock'].some((name) => servers[name].stored !== servers[name].answered)) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
