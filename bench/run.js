'use strict';

// The benchmark in one command: seed, build, then for each server in turn (ours, stock Strapi,
// raw) start it, check every endpoint answers correctly, warm up and measure with autocannon from
// a separate process; print the table and write bench/results/.
//
//   node bench/run.js [--articles 10000] [--duration 8] [--connections 20] [--warmup 2]
//                     [--skip-build] [--servers ours,stock,raw] [--start-timeout S]

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { fork, spawnSync } = require('node:child_process');
const { parseArgs } = require('./lib/args');
const { checkEndpoint, compareAnswers } = require('./lib/checks');
const { endpointPlan, sampleRequests, SEARCH_SQL_WORDS } = require('./lib/endpoints');
const { runLoad } = require('./lib/load-client');
const { formatSearch, formatTable, isValid, ratiosOf, writeResults } = require('./lib/report');
const { tableExists } = require('./lib/raw-queries');
const { compareSearch } = require('./lib/search-sql');
const { APP_DIR, BENCH_DIR, DATA_DIR, RESULTS_DIR, randomSecrets, serverEnv } = require('./lib/server-env');
const { sqliteStore } = require('./lib/store');
const { drain } = require('./lib/http-get');
const { freePort, startServer, stopServer } = require('./lib/server-process');


const SERVER_DEFINITIONS = {
  ours: {
    args: [path.join(APP_DIR, 'node_modules', '@strapi', 'strapi', 'bin', 'strapi.js'), 'start'],
    readyPath: '/api/artikel/latest',
  },
  stock: {
    args: [path.join(BENCH_DIR, 'stock-strapi.js')],
    readyPath: '/api/categories',
    env: { ARTIKEL_BENCHMARK: 'stock-rest' },
  },
  raw: {
    args: [path.join(BENCH_DIR, 'raw-server.js')],
    readyPath: '/api/artikel/latest',
  },
};

const say = (text) => process.stdout.write(`${text}\n`);
const seconds = (start) => (Date.now() - start) / 1000;

function build(skip) {
  const built = fs.existsSync(path.join(APP_DIR, 'dist', 'src', 'plugins', 'artikel', 'server', 'src', 'index.js'));
  if (skip) {
    if (!built) throw new Error('--skip-build was given but dist/ holds no build; run without it once.');
    say('Build: skipped (--skip-build), using the existing dist/.');
    return { skipped: true };
  }
  say('Build: npm run build (TypeScript and admin panel, about a minute) ...');
  const start = Date.now();
  // The build loads the app's config, which wants the secrets; given here, it does not generate and
  // store development ones in .tmp/.
  const result = spawnSync('npm', ['run', 'build'], { cwd: APP_DIR, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...randomSecrets() } });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status})`);
  return { skipped: false, seconds: seconds(start) };
}

/** Runs bench/seed.js as its own process: it boots Strapi with its own environment. */
function seed(articles) {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(BENCH_DIR, 'seed.js'), ['--articles', String(articles)], { cwd: APP_DIR, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let info = null;
    child.on('message', (message) => {
      if (message.type === 'seeded') info = message.info;
    });
    child.on('exit', (code) => (code === 0 && info ? resolve(info) : reject(new Error(`bench/seed.js failed (exit ${code})`))));
  });
}

function gitState() {
  const git = (...args) => spawnSync('git', args, { cwd: APP_DIR, encoding: 'utf8' });
  const head = git('rev-parse', '--short', 'HEAD');
  if (head.status !== 0) return null;
  return { commit: head.stdout.trim(), dirty: git('status', '--porcelain', '--untracked-files=no').stdout.trim() !== '' };
}

function machine() {
  const cpus = os.cpus();
  return { node: process.versions.node, platform: `${os.platform()} ${os.release()}`, cpus: cpus.length, cpuModel: cpus[0]?.model?.trim() ?? 'unknown', memoryGb: Math.round(os.totalmem() / 2 ** 30) };
}

const describeRun = (run) =>
  `${run.rps.toFixed(1)} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms${isValid(run) ? '' : ` — ${run.non2xx} non-2xx, ${run.errors} errors`}`;

/** Waits for what the last load left running on the server, and says so when it was long. */
async function settle(name, port, readyPath) {
  const seconds = await drain(port, readyPath);
  if (seconds > 1) say(`[${name}] waited ${seconds.toFixed(1)} s for requests left in flight to finish`);
}

/** One server: start, check each endpoint, measure each endpoint, stop. */
async function benchServer({ name, databaseFile, plan, samples, options }) {
  const definition = SERVER_DEFINITIONS[name];
  const port = await freePort();
  say(`\n[${name}] starting on 127.0.0.1:${port} ...`);
  const server = await startServer({
    name,
    command: process.execPath,
    args: definition.args,
    cwd: APP_DIR,
    env: serverEnv({ store: sqliteStore(databaseFile), port, extra: definition.env }),
    readyPath: definition.readyPath,
    logFile: path.join(DATA_DIR, 'logs', `${name}.log`),
    readyTimeoutMs: options.startTimeout * 1000,
    onWaiting: (elapsed) => say(`[${name}] still starting after ${Math.round(elapsed)} s (the first start on a new database builds the plugin's tag and search indexes) ...`),
  });
  say(`[${name}] ready in ${server.startupSeconds.toFixed(1)} s (log: ${path.relative(process.cwd(), server.logFile)})`);
  const outcome = { startupSeconds: server.startupSeconds, endpoints: {} };
  try {
    if (options.serverWarmup > 0) {
      // A freshly started Node server needs some ten seconds of load before the JIT has settled;
      // without this the first endpoints measured pay for it. Every endpoint's requests, interleaved.
      const longest = Math.max(...plan.map((endpoint) => endpoint.paths[name].length));
      const mixed = Array.from({ length: longest }, (_, i) => plan.map((endpoint) => endpoint.paths[name][i % endpoint.paths[name].length])).flat();
      say(`[${name}] warming up for ${options.serverWarmup} s on every endpoint ...`);
      await runLoad({ port, paths: mixed, connections: options.connections, seconds: options.serverWarmup, warmupSeconds: 0, visitEveryPath: false });
      await settle(name, port, definition.readyPath);
    }
    for (const endpoint of plan) {
      const check = await checkEndpoint({ server: name, port, endpoint, slugs: samples.slugs });
      for (const problem of check.problems) say(`[${name}] ${endpoint.key}: CHECK FAILED ${problem}`);
      const run = await runLoad({ port, paths: endpoint.paths[name], connections: options.connections, seconds: options.duration, warmupSeconds: options.warmup, drainPath: definition.readyPath });
      say(`[${name}] ${endpoint.label.padEnd(28)} ${describeRun(run)}`);
      await settle(name, port, definition.readyPath);
      outcome.endpoints[endpoint.key] = { run, check };
    }
  } finally {
    await stopServer(server);
  }
  return outcome;
}

async function main() {
  const options = parseArgs(process.argv.slice(2), { articles: 10000, duration: 8, connections: 20, warmup: 2, serverWarmup: 10, skipBuild: false, servers: 'ours,stock,raw', startTimeout: 0 });
  options.articles = Math.round(options.articles);
  // The plugin indexes every article at its first start on a freshly seeded file.
  options.startTimeout = options.startTimeout || 300 + Math.ceil(options.articles / 50);
  const servers = options.servers.split(',').map((name) => name.trim()).filter(Boolean);
  for (const name of servers) if (!SERVER_DEFINITIONS[name]) throw new Error(`Unknown server "${name}"; known: ${Object.keys(SERVER_DEFINITIONS).join(', ')}`);
  const started = Date.now();
  const createdAt = new Date().toISOString();

  const buildInfo = build(options.skipBuild);
  const seedInfo = await seed(options.articles);
  const databaseFile = seedInfo.database;
  const samples = await sampleRequests(sqliteStore(databaseFile));
  const plan = endpointPlan(samples);
  const perRun = options.warmup + options.duration;
  say(`\nMeasuring ${plan.length} endpoints on ${servers.length} servers, ${perRun} s each (about ${Math.ceil((plan.length * servers.length * (perRun + 1)) / 60)} min), ${options.connections} connections.`);

  const outcomes = {};
  for (const name of servers) {
    try {
      outcomes[name] = await benchServer({ name, databaseFile, plan, samples, options });
    } catch (error) {
      // One server that cannot start or be measured must not hide the others' results.
      say(`[${name}] FAILED: ${error.message}`);
      outcomes[name] = { failed: error.message.split('\n')[0], endpoints: {} };
      continue;
    }
    if (name === 'ours') {
      const db = new (require('better-sqlite3'))(databaseFile, { readonly: true });
      outcomes.ours.searchIndex = tableExists(db, 'artikel_search');
      db.close();
    }
  }

  const differences = [];
  let compared = 0;
  const endpoints = plan.map((endpoint) => {
    const results = {};
    const checks = {};
    for (const name of servers) {
      const measured = outcomes[name].endpoints[endpoint.key];
      results[name] = measured?.run;
      checks[name] = measured ? measured.check.problems : [`not measured: ${outcomes[name].failed ?? 'stopped early'}`];
    }
    const answers = (name) => outcomes[name]?.endpoints[endpoint.key]?.check.answers ?? [];
    if (outcomes.ours) {
      for (const other of servers.filter((name) => name !== 'ours')) {
        const comparison = compareAnswers(endpoint, answers('ours'), answers(other), 'ours', other);
        compared += comparison.compared;
        differences.push(...comparison.differences);
      }
    }
    const valid = servers.every((name) => isValid(results[name]) && checks[name].length === 0);
    return { key: endpoint.key, label: endpoint.label, note: endpoint.note, results, checks, ratios: ratiosOf(results), valid };
  });

  say('\nSQL-level search comparison ...');
  const searchSql = compareSearch(databaseFile, samples.words.slice(0, SEARCH_SQL_WORDS));

  const results = {
    createdAt,
    options: { articles: options.articles, duration: options.duration, warmup: options.warmup, connections: options.connections, servers },
    machine: machine(),
    app: gitState(),
    build: buildInfo,
    seed: { reused: seedInfo.reused, seconds: seedInfo.seconds, bytes: seedInfo.bytes, published: seedInfo.published, drafts: seedInfo.drafts },
    servers: Object.fromEntries(
      servers.map((name) => [name, { startupSeconds: outcomes[name].startupSeconds ?? null, failed: outcomes[name].failed ?? null, ...(name === 'ours' ? { searchIndex: outcomes.ours.searchIndex ?? null } : {}) }]),
    ),
    samples: { slugs: samples.slugs.length, words: samples.words, tags: samples.tags, categories: samples.categories },
    endpoints,
    agreement: { comparedAnswers: compared, differences: differences.length },
    differences,
    searchSql,
    totalSeconds: seconds(started),
  };

  say(`\n${options.articles.toLocaleString('en-US')} articles (${seedInfo.published} published), ${options.connections} connections, ${options.duration} s per run after ${options.warmup} s warm-up:\n`);
  say(formatTable(results));
  say(`\n${formatSearch(searchSql)}`);
  const written = writeResults(results, RESULTS_DIR);
  say(`\nWrote ${written.map((file) => path.relative(process.cwd(), file)).join(', ')}`);
  say(`Total ${Math.round(results.totalSeconds)} s.`);
  if (endpoints.some((endpoint) => !endpoint.valid)) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
