// @ts-check
'use strict';

// Reads while articles are written. Readers at --connections drive the seven public reads in a
// site's proportions (bench/lib/read-mix.js), alone and while a writer POSTs one new article per
// second through /api/artikel and an editor publishes an edit of one article per second through
// the Content Manager (the Document Service), in --rounds rounds of both windows (the order turned
// every round), so that a slower stretch of the shared machine falls on both sides of the ratio. Every write is checked at once by
// reading what it changed (the article, the newest list, a search for its new word), and edited
// articles are re-read at random moments: an answer older than the last committed write is stale.
// Runs on a private copy of the seeded SQLite file, for our app and for our app with its response
// cache off.
//
//   node bench/mixed.js [--articles 10000] [--duration 10] [--rounds 3] [--connections 20] [--skip-build] [--servers ours,uncached]

const path = require('node:path');
const { parseArgs } = require('./lib/args');
const { endpointPlan, sampleRequests } = require('./lib/endpoints');
const { runLoad } = require('./lib/load-client');
const { READ_WEIGHTS, readMixPaths } = require('./lib/read-mix');
const { build, gitState, machine, say, seed } = require('./lib/run-steps');
const { RESULTS_DIR } = require('./lib/server-env');
const { createToken, percentile, privateCopy, registerEditor, startApp, stopServer } = require('./lib/side-runs');
const { sqliteStore } = require('./lib/store');
const { writeFigures } = require('./lib/figures');
const { sleep } = require('./lib/server-process');
const { middleOf } = require('./lib/median');

const SERVER_ENV = { ours: {}, uncached: { ARTIKEL_READ_CACHE_MB: '0' } };
const CATEGORY_NAMES = ['Landscapes', 'Portraits', 'Weddings', 'Studio'];

async function getJson(baseUrl, pathName) {
  const response = await fetch(`${baseUrl}${pathName}`);
  return { status: response.status, body: /** @type {any} */ (response.status === 200 ? await response.json() : await response.text()) };
}

/**
 * The two writers and the staleness checks, running until `stop()`. Each write is followed by reads
 * of what it changed; `expectations` remembers each edited article's last committed title, which a
 * sampler compares with fresh reads at random moments.
 */
function startWriters({ baseUrl, token, editor, slugs, writesPerSecond, firstNumber }) {
  /** @type {{ posts: { status: number, ms: number }[], edits: { status: number, ms: number }[], checks: number, stale: string[], failures: string[] }} */
  const outcome = { posts: [], edits: [], checks: 0, stale: [], failures: [] };
  const expectations = new Map();
  let running = true;
  const stale = (what, expected, got) => outcome.stale.push(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`);
  const everyMs = 1000 / writesPerSecond;

  // Numbered on from earlier rounds' writes, so each marker word names one article.
  const poster = (async () => {
    for (let n = firstNumber; running; n += 1) {
      const tick = Date.now();
      const marker = `mixpost${String(n).padStart(5, '0')}x`;
      const started = performance.now();
      const response = await fetch(`${baseUrl}/api/artikel`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify({
          title: `Mixed workload post ${n} ${marker}`,
          content: `Written during the read load. ${marker}`,
          category: CATEGORY_NAMES[n % CATEGORY_NAMES.length],
          tags: 'Mixed, Benchmark',
        }),
      });
      const ms = performance.now() - started;
      /** @type {any} */
      const body = await response.json().catch(() => null);
      outcome.posts.push({ status: response.status, ms });
      if (response.status !== 201) {
        outcome.failures.push(`POST ${n}: ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
      } else {
        const slug = body.data.slug;
        // Among the latest: the editor's republished edits become newest too, so not always first.
        const latest = await getJson(baseUrl, '/api/artikel/latest');
        outcome.checks += 1;
        if (!latest.body?.data?.some((article) => article.slug === slug))
          stale(
            `latest after POST ${n}`,
            slug,
            latest.body?.data?.map((article) => article.slug),
          );
        const article = await getJson(baseUrl, `/api/artikel/${encodeURIComponent(slug)}`);
        outcome.checks += 1;
        if (article.status !== 200) stale(`article ${slug} after POST`, 200, article.status);
        const found = await getJson(baseUrl, `/api/artikel?q=${marker}`);
        outcome.checks += 1;
        if (found.body?.meta?.pagination?.total !== 1) stale(`search ${marker} after POST`, 1, found.body?.meta?.pagination?.total);
      }
      await sleep(Math.max(0, everyMs - (Date.now() - tick)));
    }
  })();

  const editorLoop = (async () => {
    for (let n = firstNumber; running; n += 1) {
      const tick = Date.now();
      const slug = slugs[(n * 7919) % slugs.length];
      const current = await getJson(baseUrl, `/api/artikel/${encodeURIComponent(slug)}`);
      if (current.status !== 200) {
        outcome.failures.push(`edit ${n}: reading ${slug} answered ${current.status}`);
        await sleep(everyMs);
        continue;
      }
      const marker = `mixedit${String(n).padStart(5, '0')}x`;
      const title = `${current.body.data.title.replace(/ mixedit\d+x$/, '')} ${marker}`;
      const answer = await editor.publishEdit(current.body.data.id, { title });
      outcome.edits.push({ status: answer.status, ms: answer.ms });
      if (answer.status !== 200) {
        outcome.failures.push(`edit ${n}: ${answer.status} ${answer.text.slice(0, 200)}`);
      } else {
        expectations.set(slug, title);
        const article = await getJson(baseUrl, `/api/artikel/${encodeURIComponent(slug)}`);
        outcome.checks += 1;
        if (article.body?.data?.title !== title) stale(`article ${slug} after edit ${n}`, title, article.body?.data?.title);
        const found = await getJson(baseUrl, `/api/artikel?q=${marker}`);
        outcome.checks += 1;
        if (found.body?.data?.[0]?.slug !== slug) stale(`search ${marker} after edit`, slug, found.body?.data?.[0]?.slug);
      }
      await sleep(Math.max(0, everyMs - (Date.now() - tick)));
    }
  })();

  // At random moments, an edited article read again must show its last committed title.
  const sampler = (async () => {
    while (running) {
      await sleep(100 + Math.random() * 400);
      const edited = [...expectations.entries()];
      if (edited.length === 0) continue;
      const [slug, title] = edited[Math.floor(Math.random() * edited.length)];
      const article = await getJson(baseUrl, `/api/artikel/${encodeURIComponent(slug)}`);
      outcome.checks += 1;
      // An edit of the same article may have committed while this read ran; compare with the newest expectation.
      if (article.body?.data?.title !== title && article.body?.data?.title !== expectations.get(slug))
        stale(`sampled ${slug}`, expectations.get(slug), article.body?.data?.title);
    }
  })();

  return {
    async stop() {
      running = false;
      await Promise.all([poster, editorLoop, sampler]);
      return outcome;
    },
  };
}

const summarizeWrites = (writes, okStatus) => ({
  count: writes.length,
  ok: writes.filter((write) => write.status === okStatus).length,
  p50Ms: percentile(
    writes.map((write) => write.ms),
    50,
  ),
  p99Ms: percentile(
    writes.map((write) => write.ms),
    99,
  ),
});

async function measureServer({ name, seeded, plan, slugs, options }) {
  const copy = privateCopy(seeded, `mixed-${name}`);
  try {
    say(`\n[${name}] API token and server on a private copy of the seeded file ...`);
    const token = createToken(copy.store);
    const server = await startApp({ store: copy.store, name: `mixed-${name}`, extra: SERVER_ENV[name] });
    try {
      const baseUrl = `http://127.0.0.1:${server.port}`;
      const editor = await registerEditor(baseUrl);
      const paths = readMixPaths(plan, 'ours');
      const load = {
        ports: [server.port],
        paths,
        connections: options.connections,
        seconds: options.duration,
        warmupSeconds: options.warmup,
        drainPath: '/api/artikel/latest',
        visitEveryPath: false,
      };
      say(
        `[${name}] warming up ${options.serverWarmup} s, then ${options.rounds} rounds of ${options.duration} s of reads alone and ${options.duration} s with ${options.writesPerSecond} POST/s and ${options.writesPerSecond} edit/s ...`,
      );
      await runLoad({ ...load, seconds: options.serverWarmup, warmupSeconds: 0 });
      const rounds = [];
      const writes = { posts: [], edits: [], checks: 0, stale: [], failures: [] };
      const readsAlone = () => runLoad(load);
      const readsWithWrites = async (round) => {
        const writers = startWriters({
          baseUrl,
          token,
          editor,
          slugs,
          writesPerSecond: options.writesPerSecond,
          firstNumber: round * 10000 + 1,
        });
        const run = await runLoad(load);
        const outcome = await writers.stop();
        for (const key of ['posts', 'edits', 'stale', 'failures']) writes[key].push(...outcome[key]);
        writes.checks += outcome.checks;
        return run;
      };
      for (let round = 0; round < options.rounds; round += 1) {
        // Alone first in even rounds, with the writes first in odd ones.
        const readOnly = round % 2 === 0 ? await readsAlone() : null;
        const mixed = await readsWithWrites(round);
        const alone = readOnly ?? (await readsAlone());
        rounds.push({ readOnly: alone, mixed, mixedToReadOnly: mixed.rps / alone.rps });
        say(
          `[${name}] round ${round + 1}: reads alone ${alone.rps.toFixed(0)} req/s (p99 ${alone.p99} ms), with writes ${mixed.rps.toFixed(0)} req/s (p50 ${mixed.p50} ms, p99 ${mixed.p99} ms): ${((100 * mixed.rps) / alone.rps).toFixed(0)} %`,
        );
      }
      const middle = middleOf(rounds, (round) => round.mixedToReadOnly);
      say(`[${name}] median round: ${(100 * middle.mixedToReadOnly).toFixed(0)} % of reads alone`);
      say(
        `[${name}] ${writes.posts.length} POSTs, ${writes.edits.length} edits, ${writes.checks} freshness checks, ${writes.stale.length} stale, ${writes.failures.length} failed writes`,
      );
      for (const line of [...writes.stale, ...writes.failures].slice(0, 10)) say(`[${name}]   ${line}`);
      return {
        // The round whose ratio is the median, with both its windows.
        readOnly: middle.readOnly,
        mixed: middle.mixed,
        mixedToReadOnly: middle.mixedToReadOnly,
        rounds: rounds.map((round) => ({
          readOnlyRps: round.readOnly.rps,
          mixedRps: round.mixed.rps,
          mixedP99: round.mixed.p99,
          mixedToReadOnly: round.mixedToReadOnly,
        })),
        posts: summarizeWrites(writes.posts, 201),
        edits: summarizeWrites(writes.edits, 200),
        freshness: { checks: writes.checks, stale: writes.stale.length, staleAnswers: writes.stale.slice(0, 50) },
        failedWrites: writes.failures.slice(0, 50),
      };
    } finally {
      await stopServer(server);
    }
  } finally {
    copy.remove();
  }
}

async function main() {
  const options = parseArgs(process.argv.slice(2), {
    articles: 10000,
    duration: 10,
    rounds: 3,
    warmup: 2,
    serverWarmup: 10,
    connections: 20,
    writesPerSecond: 1,
    skipBuild: false,
    servers: 'ours,uncached',
  });
  const servers = options.servers
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of servers) if (!SERVER_ENV[name]) throw new Error(`--servers takes ${Object.keys(SERVER_ENV).join(', ')}`);
  const createdAt = new Date().toISOString();
  const buildInfo = build(options.skipBuild);
  const seedInfo = await seed(options.articles, 'sqlite');
  const samples = await sampleRequests(sqliteStore(seedInfo.database));
  const plan = endpointPlan(samples);

  const measured = {};
  for (const name of servers)
    measured[name] = await measureServer({ name, seeded: seedInfo.database, plan, slugs: samples.slugs, options });

  const results = {
    kind: 'mixed',
    createdAt,
    options: {
      store: 'sqlite',
      articles: options.articles,
      duration: options.duration,
      rounds: options.rounds,
      warmup: options.warmup,
      connections: options.connections,
      writesPerSecond: options.writesPerSecond,
      servers,
    },
    readWeights: READ_WEIGHTS,
    machine: machine(),
    app: gitState(),
    build: buildInfo,
    targets: { mixedToReadOnly: 0.5, stale: 0 },
    servers: measured,
  };
  const written = writeFigures(results, RESULTS_DIR, `mixed-${options.articles}`);
  say(`\nWrote ${written.map((file) => path.relative(process.cwd(), file)).join(', ')}`);
  const failed = Object.values(measured).some((run) => run.freshness.stale > 0 || run.failedWrites.length > 0);
  if (failed) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
