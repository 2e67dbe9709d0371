// @ts-check
'use strict';

// The steps every benchmark script shares: build the app, seed the store, and describe the
// machine and the commit the figures were measured on.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { fork, spawnSync } = require('node:child_process');
const { APP_DIR, BENCH_DIR, RESULTS_DIR, randomSecrets } = require('./server-env');
const { sqliteStore } = require('./store');

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
  const result = spawnSync('npm', ['run', 'build'], {
    cwd: APP_DIR,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, ...randomSecrets() },
  });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status})`);
  return { skipped: false, seconds: seconds(start) };
}

/**
 * Runs bench/seed.js as its own process: it boots Strapi with its own environment. On PostgreSQL
 * `databaseEnv` holds the cluster's DATABASE_* variables.
 */
function seed(articles, store, databaseEnv = {}) {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(BENCH_DIR, 'seed.js'), ['--articles', String(articles), '--store', store], {
      cwd: APP_DIR,
      env: { ...process.env, ...databaseEnv },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let info = null;
    child.on('message', (/** @type {any} */ message) => {
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
  return {
    node: process.versions.node,
    platform: `${os.platform()} ${os.release()}`,
    cpus: cpus.length,
    cpuModel: cpus[0]?.model?.trim() ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
  };
}

/**
 * How most benchmarks begin: the time the run began, the build (unless --skip-build), and the
 * seeded SQLite file of --articles articles with its store.
 * @param {{ skipBuild: boolean, articles: number }} options
 */
async function buildAndSeedSqlite(options) {
  const createdAt = new Date().toISOString();
  const buildInfo = build(options.skipBuild);
  const seedInfo = await seed(options.articles, 'sqlite');
  return { createdAt, buildInfo, seedInfo, store: sqliteStore(seedInfo.database) };
}

/**
 * Writes a benchmark's results as bench/results/latest-<name>.json (the latest figures only: earlier
 * runs are in git's history) and says where.
 * @param {string} name
 * @param {object} results
 */
function writeLatestResults(name, results) {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `latest-${name}.json`);
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  say(`[${name}] results in ${path.relative(process.cwd(), file)}`);
}

module.exports = { build, buildAndSeedSqlite, gitState, machine, say, seconds, seed, writeLatestResults };
