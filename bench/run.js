// @ts-check
'use strict';

// The benchmark in one command: build, seed, start every server (ours, stock Strapi, raw, ...)
// and warm it up, then per endpoint check that each answers correctly and measure them all with
// autocannon from a separate process, in rounds (every server once per round); print the table and
// write bench/results/. With --store postgres the data goes into a throwaway PostgreSQL cluster
// started for the run (and removed after it), raw is left out (it reads SQLite only) and ours2, two
// instances of our app on the one database, can be measured.
//
//   node bench/run.js [--store sqlite|postgres] [--articles 10000] [--duration 4] [--rounds 3]
//                     [--connections 20] [--warmup 1] [--skip-build] [--servers ours,stock,raw] [--start-timeout S]

const path = require('node:path');
const { parseArgs } = require('./lib/args');
const { checkEndpoint, compareAnswers } = require('./lib/checks');
const { endpointPlan, sampleRequests, SEARCH_SQL_WORDS } = require('./lib/endpoints');
const { runLoad } = require('./lib/load-client');
const { SERVERS, STORE_NAMES } = require('./lib/chart');
const { startCluster, stopCluster } = require('./lib/pg-cluster');
const { formatSearch, formatTable, isValid, ratiosOf, writeResults } = require('./lib/report');
const { compareSearch } = require('./lib/search-sql');
const { APP_DIR, BENCH_DIR, DATA_DIR, OURS_START, RESULTS_DIR, serverEnv } = require('./lib/server-env');
const { STORES, describeStore, hasSearchIndex, postgresStore, sqliteStore, untilIndexed, withPostgres } = require('./lib/store');
const { drain } = require('./lib/http-get');
const { middleOf } = require('./lib/median');
const { build, gitState, machine, say, seconds, seed } = require('./lib/run-steps');
const { freePort, startServer, stopServer } = require('./lib/server-process');

const RAW_SERVER = path.join(BENCH_DIR, 'raw-server.js');
const SERVER_DEFINITIONS = {
  ours: {
    args: OURS_START,
    readyPath: '/api/artikel/latest',
  },
  stock: {
    args: [path.join(BENCH_DIR, 'stock-strapi.js')],
    readyPath: '/api/categories',
    env: { ARTIKEL_BENCHMARK: 'stock-rest' },
  },
  // Our app with its response cache off: every read computed from the database, as after a write.
  uncached: {
    args: OURS_START,
    readyPath: '/api/artikel/latest',
    env: { ARTIKEL_READ_CACHE_MB: '0' },
  },
  raw: {
    args: [RAW_SERVER],
    readyPath: '/api/artikel/latest',
  },
  // raw searching as it would without an index, the LIKE scan: measured on the search only.
  rawlike: {
    args: [RAW_SERVER],
    readyPath: '/api/artikel/latest',
    env: { RAW_SEARCH: 'like' },
    endpoints: ['q'],
  },
  // Our app twice, as a site behind a load balancer would run it: two `npm start` servers on the one
  // PostgreSQL database, each on its own port, the load generator's connections split between them.
  ours2: {
    args: OURS_START,
    readyPath: '/api/artikel/latest',
    instances: 2,
  },
};

const DEFAULT_SERVERS = { sqlite: 'ours,uncached,stock,raw,rawlike', postgres: 'ours,uncached,stock,ours2' };
// Why a server is not measured on a store (see `stores` in lib/chart.js).
const NOT_ON = {
  raw: 'bench/raw-server.js reads the SQLite file with better-sqlite3 and has no PostgreSQL version',
  rawlike: 'bench/raw-server.js reads the SQLite file with better-sqlite3 and has no PostgreSQL version',
  ours2:
    'two instances are measured on PostgreSQL only (--store postgres): the plugin keeps several instances in step through PostgreSQL, and a SQLite file is served by one process',
};

// Servers started and not yet stopped, so an interrupted run can stop them with the cluster.
const liveServers = new Set();

const describeRun = (run) =>
  `${run.rps.toFixed(1)} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms${isValid(run) ? '' : ` — ${run.non2xx} non-2xx, ${run.errors} errors`}`;

/** Waits for what the last load left running on the server (every instance), and says so when it was long. */
async function settle(name, ports, readyPath) {
  const seconds = Math.max(...(await Promise.all(ports.map((port) => drain(port, readyPath)))));
  if (seconds > 1) say(`[${name}] waited ${seconds.toFixed(1)} s for requests left in flight to finish`);
}

async function stopServers(servers) {
  for (const server of servers) {
    await stopServer(server);
    liveServers.delete(server);
  }
}

/**
 * Starts a server's instances one after the other: the first start on a freshly seeded database
 * builds the plugin's tag and search indexes, which a second instance must find built rather than
 * build alongside it.
 */
async function startInstances({ name, store, options }) {
  const definition = SERVER_DEFINITIONS[name];
  const count = definition.instances ?? 1;
  const started = [];
  try {
    for (let i = 1; i <= count; i += 1) {
      const label = count === 1 ? name : `${name} #${i}`;
      const port = await freePort();
      say(`\n[${label}] starting on 127.0.0.1:${port} ...`);
      const server = await startServer({
        name: label,
        command: process.execPath,
        args: definition.args,
        cwd: APP_DIR,
        env: serverEnv({ store, port, extra: definition.env }),
        readyPath: definition.readyPath,
        logFile: path.join(DATA_DIR, 'logs', count === 1 ? `${name}.log` : `${name}-${i}.log`),
        readyTimeoutMs: options.startTimeout * 1000,
        onWaiting: (elapsed) =>
          say(
            `[${label}] still starting after ${Math.round(elapsed)} s (the first start on a new database builds the plugin's tag and search indexes) ...`,
          ),
      });
      liveServers.add(server);
      started.push(server);
      // Our app (and stock, the same app) answers at once on a new file and indexes it in the background.
      if (!definition.args.includes(RAW_SERVER))
        await untilIndexed(store, options.startTimeout * 1000, (counts) =>
          say(
            `[${label}] answering; its index holds ${counts.indexed} of ${counts.published} published articles, waiting for the rest ...`,
          ),
        );
      say(`[${label}] ready in ${server.startupSeconds.toFixed(1)} s (log: ${path.relative(process.cwd(), server.logFile)})`);
    }
  } catch (error) {
    await stopServers(started);
    throw error;
  }
  return started;
}

/**
 * The endpoint's checks on every instance. The instances serve one database, so beyond each
 * passing on its own, they must give the same answers; the first instance's answers stand for the
 * server in the comparison with ours.
 */
async function checkInstances({ name, ports, endpoint, samples }) {
  const checks = [];
  for (const port of ports) checks.push(await checkEndpoint({ server: name, port, endpoint, slugs: samples.slugs }));
  if (checks.length === 1) return checks[0];
  const problems = checks.flatMap((check, i) => check.problems.map((problem) => `instance #${i + 1}: ${problem}`));
  for (let i = 1; i < checks.length; i += 1) {
    problems.push(...compareAnswers(endpoint, checks[0].answers, checks[i].answers, `${name} #1`, `${name} #${i + 1}`).differences);
  }
  return { answers: checks[0].answers, problems };
}

/** Whether the server answers this endpoint in the benchmark (rawlike answers the search only). */
const serves = (name, endpoint) => !SERVER_DEFINITIONS[name].endpoints || SERVER_DEFINITIONS[name].endpoints.includes(endpoint.key);

/** Starts a server's instances and warms them up; a server that cannot start is reported, not fatal. */
async function startWarm({ name, store, plan: fullPlan, options }) {
  const definition = SERVER_DEFINITIONS[name];
  const plan = fullPlan.filter((endpoint) => serves(name, endpoint));
  let instances;
  try {
    instances = await startInstances({ name, store, options });
  } catch (error) {
    const { message } = /** @type {Error} */ (error);
    say(`[${name}] FAILED: ${message}`);
    return { failed: message.split('\n')[0], endpoints: {} };
  }
  const ports = instances.map((instance) => instance.port);
  const outcome = { instances, ports, startupSeconds: instances[0].startupSeconds, endpoints: {} };
  if (instances.length > 1) outcome.instanceStartupSeconds = instances.map((instance) => instance.startupSeconds);
  if (options.serverWarmup > 0) {
    // A freshly started Node server needs some ten seconds of load before the JIT has settled;
    // without this the first endpoints measured pay for it. Every endpoint's requests, interleaved.
    const longest = Math.max(...plan.map((endpoint) => endpoint.paths[name].length));
    const mixed = Array.from({ length: longest }, (_, i) =>
      plan.map((endpoint) => endpoint.paths[name][i % endpoint.paths[name].length]),
    ).flat();
    say(`[${name}] warming up for ${options.serverWarmup} s on every endpoint ...`);
    await runLoad({
      ports,
      paths: mixed,
      connections: options.connections,
      seconds: options.serverWarmup,
      warmupSeconds: 0,
      visitEveryPath: false,
    });
    await settle(name, ports, definition.readyPath);
  }
  return outcome;
}

/**
 * Stock grants its routes to the Public role when it starts, and each start of our app removes the
 * Public role's permissions for actions it does not have (users-permissions keeps them in step with
 * the routes): stock starts after every instance of ours, or its reads are refused with a 403.
 */
const startOrder = (servers) => [...servers.filter((name) => name !== 'stock'), ...servers.filter((name) => name === 'stock')];

/**
 * One endpoint on every live server: each checked, then `options.rounds` rounds, each running every
 * server's window once, the order turned by one server per round. A slower stretch of this shared
 * machine then falls on the servers of a round alike, and each ratio is taken within a round (see
 * ratiosOf). A server that fails a window is measured no further.
 */
async function measureEndpoint({ endpoint, live, outcomes, samples, options }) {
  const measuring = live.filter((name) => serves(name, endpoint) && !outcomes[name].failed);
  for (const name of measuring) {
    const check = await checkInstances({ name, ports: outcomes[name].ports, endpoint, samples });
    for (const problem of check.problems) say(`[${name}] ${endpoint.key}: CHECK FAILED ${problem}`);
    outcomes[name].endpoints[endpoint.key] = { check, rounds: [] };
  }
  for (let round = 0; round < options.rounds; round += 1) {
    const order = measuring.map((_, i) => measuring[(i + round) % measuring.length]);
    for (const name of order.filter((server) => !outcomes[server].failed)) {
      const { ports } = outcomes[name];
      const { readyPath } = SERVER_DEFINITIONS[name];
      try {
        // Every path once before the first round only: a server's cache keeps them for the next rounds.
        const run = await runLoad({
          ports,
          paths: endpoint.paths[name],
          connections: options.connections,
          seconds: options.duration,
          warmupSeconds: options.warmup,
          visitEveryPath: round === 0,
          drainPath: readyPath,
        });
        say(`[${name}] ${endpoint.label.padEnd(28)} ${options.rounds > 1 ? `round ${round + 1}: ` : ''}${describeRun(run)}`);
        await settle(name, ports, readyPath);
        outcomes[name].endpoints[endpoint.key].rounds.push(run);
      } catch (error) {
        const { message } = /** @type {Error} */ (error);
        say(`[${name}] FAILED during ${endpoint.key}: ${message}`);
        outcomes[name].failed = message.split('\n')[0];
      }
    }
  }
  for (const name of measuring) {
    const measured = outcomes[name].endpoints[endpoint.key];
    if (measured.rounds.length === 0) delete outcomes[name].endpoints[endpoint.key];
    else measured.run = middleOf(measured.rounds, (run) => run.rps);
  }
}

/** The servers asked for, less those that cannot be measured on the store (said so, not an error). */
function chooseServers(options) {
  const asked = (options.servers || DEFAULT_SERVERS[options.store])
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of asked)
    if (!SERVER_DEFINITIONS[name]) throw new Error(`Unknown server "${name}"; known: ${Object.keys(SERVER_DEFINITIONS).join(', ')}`);
  const servers = asked.filter((name) =>
    /** @type {(typeof SERVERS)[number]} */ (SERVERS.find((server) => server.key === name)).stores.includes(options.store),
  );
  for (const name of asked.filter((n) => !servers.includes(n))) say(`[${name}] skipped on ${STORE_NAMES[options.store]}: ${NOT_ON[name]}.`);
  if (servers.length === 0) throw new Error(`No server left to measure on ${STORE_NAMES[options.store]}`);
  return servers;
}

/** Stops what an interrupted run left: the servers, then the cluster; then exits. */
function stopOnSignals(clusterDir) {
  const handler = (signal) => {
    say(`\n${signal}: stopping the servers and the PostgreSQL cluster ...`);
    for (const server of liveServers) server.child.kill('SIGKILL');
    stopCluster(clusterDir);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

/**
 * Seeds the store and runs `measure(store, seedInfo)` on it. SQLite: the seeded file under
 * bench/.data/, reused when it exists. PostgreSQL: a throwaway cluster started here, seeded once,
 * and stopped and removed afterwards, whatever happens in between.
 */
async function withSeededStore(options, measure) {
  if (options.store === 'sqlite') {
    const seedInfo = await seed(options.articles, 'sqlite');
    return measure(sqliteStore(seedInfo.database), seedInfo);
  }
  say('\nPostgreSQL: starting a throwaway cluster (scripts/postgres-cluster.sh) ...');
  const cluster = startCluster();
  const forgetSignals = stopOnSignals(cluster.dir);
  try {
    const store = postgresStore(cluster.env);
    const seedInfo = await seed(options.articles, 'postgres', cluster.env);
    say(
      `Seeded PostgreSQL in ${seedInfo.seconds.toFixed(1)} s (${seedInfo.schemaSeconds.toFixed(1)} s of it Strapi creating its schema and the categories).`,
    );
    return await measure(store, seedInfo);
  } finally {
    for (const server of liveServers) await stopServer(server);
    stopCluster(cluster.dir);
    forgetSignals();
  }
}

/** What the results record about the store: its kind, and PostgreSQL's version. */
async function storeInfo(store) {
  if (store.kind === 'sqlite') return { kind: 'sqlite' };
  const version = await withPostgres(store, async (client) => (await client.query('SHOW server_version')).rows[0].server_version);
  return {
    kind: 'postgres',
    version: `PostgreSQL ${version.split(' ')[0]}`,
    cluster: 'throwaway, started for this run (scripts/postgres-cluster.sh: fsync off)',
  };
}

const SEARCH_SQL_ON_POSTGRES = {
  skipped: "it compares SQLite's FTS5 index with LIKE; for PostgreSQL's word index against LIKE run `node bench/pg-search.js`",
};

/** The SQL-level search comparison: FTS5 against LIKE, on the SQLite file itself. */
function searchSqlOnSqlite(store, samples, options) {
  say('\nSQL-level search comparison ...');
  return compareSearch(store.file, samples.words.slice(0, options.searchSqlWords));
}

function serverSummary(name, outcome) {
  return {
    startupSeconds: outcome.startupSeconds ?? null,
    ...(outcome.instanceStartupSeconds
      ? { instances: outcome.instanceStartupSeconds.length, instanceStartupSeconds: outcome.instanceStartupSeconds }
      : {}),
    failed: outcome.failed ?? null,
    ...(name === 'ours' ? { searchIndex: outcome.searchIndex ?? null } : {}),
  };
}

/** Every server on the seeded store, each endpoint in rounds; then the endpoints' results and the servers' agreement. */
async function measureServers({ store, servers, options }) {
  const samples = await sampleRequests(store);
  const plan = endpointPlan(samples);
  const perRun = options.warmup + options.duration;
  const windows = plan.reduce((sum, endpoint) => sum + servers.filter((name) => serves(name, endpoint)).length, 0) * options.rounds;
  say(
    `\nMeasuring ${plan.length} endpoints on ${servers.length} servers in ${options.rounds} rounds, ${windows} windows of ${perRun} s (about ${Math.ceil((windows * (perRun + 1)) / 60)} min), ${options.connections} connections, on ${describeStore(store)}.`,
  );

  // Every server runs at once (idle but for its own windows), so that each endpoint can be measured
  // on all of them in the same stretch of time (see measureEndpoint).
  const outcomes = {};
  try {
    for (const name of startOrder(servers)) outcomes[name] = await startWarm({ name, store, plan, options });
    for (const endpoint of plan) await measureEndpoint({ endpoint, live: servers, outcomes, samples, options });
    if (outcomes.ours && !outcomes.ours.failed) outcomes.ours.searchIndex = await hasSearchIndex(store);
  } finally {
    for (const name of servers) if (outcomes[name]?.instances) await stopServers(outcomes[name].instances);
  }

  const differences = [];
  let compared = 0;
  // Every server's answers against ours, or against uncached where ours is not measured.
  const reference = ['ours', 'uncached'].find((name) => outcomes[name]);
  const endpoints = plan.map((endpoint) => {
    const results = {};
    const checks = {};
    const measuring = servers.filter((name) => serves(name, endpoint));
    for (const name of measuring) {
      const measured = outcomes[name].endpoints[endpoint.key];
      results[name] = measured?.run;
      checks[name] = measured ? measured.check.problems : [`not measured: ${outcomes[name].failed ?? 'stopped early'}`];
    }
    const answers = (name) => outcomes[name]?.endpoints[endpoint.key]?.check.answers ?? [];
    if (reference) {
      for (const other of measuring.filter((name) => name !== reference)) {
        const comparison = compareAnswers(endpoint, answers(reference), answers(other), reference, other);
        compared += comparison.compared;
        differences.push(...comparison.differences);
      }
    }
    const runsOf = (name) => outcomes[name].endpoints[endpoint.key]?.rounds ?? [];
    // Each round's runs by server, for the ratios within a round.
    const rounds = Array.from({ length: options.rounds }, (_, round) =>
      Object.fromEntries(measuring.flatMap((name) => (runsOf(name)[round] ? [[name, runsOf(name)[round]]] : []))),
    );
    const roundRps = Object.fromEntries(measuring.map((name) => [name, runsOf(name).map((run) => Math.round(run.rps * 10) / 10)]));
    const valid = measuring.every((name) => isValid(results[name]) && checks[name].length === 0);
    return {
      key: endpoint.key,
      label: endpoint.label,
      note: endpoint.note,
      results,
      roundRps,
      checks,
      ratios: ratiosOf(results, store.kind, rounds),
      valid,
    };
  });
  return { samples, outcomes, endpoints, differences, compared, reference };
}

async function main() {
  const options = parseArgs(process.argv.slice(2), {
    store: 'sqlite',
    articles: 10000,
    duration: 4,
    connections: 20,
    warmup: 1,
    rounds: 3,
    serverWarmup: 10,
    skipBuild: false,
    servers: '',
    startTimeout: 0,
    searchSqlWords: SEARCH_SQL_WORDS,
  });
  if (!STORES.includes(options.store)) throw new Error(`--store takes ${STORES.join(' or ')}`);
  options.articles = Math.round(options.articles);
  // The plugin indexes every article at its first start on a freshly seeded database.
  options.startTimeout = options.startTimeout || 300 + Math.ceil(options.articles / 50);
  const servers = chooseServers(options);
  const started = Date.now();
  const createdAt = new Date().toISOString();

  const buildInfo = build(options.skipBuild);
  const results = await withSeededStore(options, async (store, seedInfo) => {
    const measured = await measureServers({ store, servers, options });
    const searchSql = store.kind === 'sqlite' ? searchSqlOnSqlite(store, measured.samples, options) : SEARCH_SQL_ON_POSTGRES;
    return {
      createdAt,
      options: {
        store: options.store,
        articles: options.articles,
        duration: options.duration,
        warmup: options.warmup,
        rounds: options.rounds,
        connections: options.connections,
        servers,
      },
      store: await storeInfo(store),
      machine: machine(),
      app: gitState(),
      build: buildInfo,
      seed: {
        reused: seedInfo.reused,
        seconds: seedInfo.seconds,
        schemaSeconds: seedInfo.schemaSeconds ?? null,
        bytes: seedInfo.bytes,
        published: seedInfo.published,
        drafts: seedInfo.drafts,
      },
      servers: Object.fromEntries(servers.map((name) => [name, serverSummary(name, measured.outcomes[name])])),
      samples: {
        slugs: measured.samples.slugs.length,
        words: measured.samples.words,
        tags: measured.samples.tags,
        categories: measured.samples.categories,
      },
      endpoints: measured.endpoints,
      agreement: { comparedAnswers: measured.compared, differences: measured.differences.length, reference: measured.reference },
      differences: measured.differences,
      searchSql,
    };
  });
  results.totalSeconds = seconds(started);

  say(
    `\n${options.articles.toLocaleString('en-US')} articles (${results.seed.published} published) on ${results.store.version ?? STORE_NAMES[options.store]}, ${options.connections} connections, ${options.rounds} rounds of ${options.duration} s per server after ${options.warmup} s warm-up; each server's median round, each ratio the median of its rounds' ratios:\n`,
  );
  say(formatTable(results));
  say(`\n${formatSearch(results.searchSql)}`);
  // A run of some of the servers writes results of its own: latest-<size>.json stays the whole comparison.
  const sorted = (list) => list.split(',').sort().join(',');
  const everyServer = !options.servers || sorted(options.servers) === sorted(DEFAULT_SERVERS[options.store]);
  const written = writeResults(results, RESULTS_DIR, everyServer ? [] : servers);
  say(`\nWrote ${written.map((file) => path.relative(process.cwd(), file)).join(', ')}`);
  say(`Total ${Math.round(results.totalSeconds)} s.`);
  if (results.endpoints.some((endpoint) => !endpoint.valid)) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
