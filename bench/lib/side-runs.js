// @ts-check
'use strict';

// What the benchmark scripts beside bench/run.js (mixed workload, memory, writes) share: a private
// copy of the seeded file to write into, a server started on it, an API token and an editor.

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { APP_DIR, DATA_DIR, OURS_START, randomSecrets, serverEnv } = require('./server-env');
const { sqliteStore, untilIndexed } = require('./store');
const { freePort, startServer, stopServer } = require('./server-process');

const SQLITE_SUFFIXES = ['', '-wal', '-shm'];
// One set of secrets for the whole run: a token made by the token command must verify on the server.
const RUN_SECRETS = randomSecrets();

/**
 * A copy of the seeded file (with its WAL, if a server left one) for a run that writes: the seeded
 * file stays as bench/run.js measures it. Removed by `remove()`.
 */
function privateCopy(seededFile, name) {
  const file = path.join(DATA_DIR, `${name}.db`);
  const remove = () => {
    for (const suffix of SQLITE_SUFFIXES) fs.rmSync(`${file}${suffix}`, { force: true });
  };
  remove();
  for (const suffix of ['', '-wal'])
    if (fs.existsSync(`${seededFile}${suffix}`)) fs.copyFileSync(`${seededFile}${suffix}`, `${file}${suffix}`);
  return { store: sqliteStore(file), remove };
}

/** A full-access API token made by the app's own command, on the store, before the server starts. */
/**
 * A custom API token on the store, holding the plugin's create action, or the actions named.
 * @param {{ kind: string, file?: string }} store
 * @param {string[]} [actions]
 */
function createToken(store, actions = ['create']) {
  const result = spawnSync(process.execPath, [path.join(APP_DIR, 'scripts', 'create-api-token.js'), `bench-${Date.now()}`], {
    cwd: APP_DIR,
    env: { ...serverEnv({ store, extra: RUN_SECRETS }), LOG_LEVEL: 'error', ARTIKEL_TOKEN_ACTIONS: actions.join(',') },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`scripts/create-api-token.js failed: ${result.stderr}`);
  return result.stdout.trim();
}

/**
 * A server of the app on the store, on a free port, with its log in bench/.data/logs/<name>.log:
 * by default our app (as `npm start` starts it); `args` and `readyPath` start another launcher (stock).
 * `extra` adds environment variables (ARTIKEL_READ_CACHE_MB=0 for uncached).
 */
async function startApp({
  store,
  name,
  extra = {},
  args = OURS_START,
  readyPath = '/api/artikel/latest',
  readyTimeoutMs = 900_000,
  waitForIndex = true,
}) {
  const port = await freePort();
  const server = await startServer({
    name,
    command: process.execPath,
    args,
    cwd: APP_DIR,
    env: serverEnv({ store, port, extra: { ...RUN_SECRETS, ...extra } }),
    readyPath,
    logFile: path.join(DATA_DIR, 'logs', `${name}.log`),
    readyTimeoutMs,
  });
  if (waitForIndex) {
    try {
      await untilIndexed(store, readyTimeoutMs);
    } catch (error) {
      // A server left running would go on building the index of a file the next run builds too.
      await stopServer(server);
      throw error;
    }
  }
  return server;
}

/** The first administrator, registered through the admin's own route; returns a client for the Content Manager's routes. */
async function registerEditor(baseUrl) {
  const response = await fetch(`${baseUrl}/admin/register-admin`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      email: 'bench-editor@studio.example',
      firstname: 'Bench',
      lastname: 'Editor',
      password: 'Bench-Editor-Passw0rd',
    }),
  });
  if (response.status !== 200) throw new Error(`registering the editor answered ${response.status}: ${await response.text()}`);
  const jwt = /** @type {string} */ (/** @type {any} */ (await response.json()).data.token);
  return {
    /** The editor's admin token, for the admin's other routes (the Media Library's /upload). */
    jwt,
    /** The Content Manager's "Publish" with the form's changes: the Document Service updates and publishes. */
    async publishEdit(documentId, form) {
      const started = performance.now();
      const answer = await fetch(`${baseUrl}/content-manager/collection-types/api::article.article/${documentId}/actions/publish`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${jwt}` },
        body: JSON.stringify(form),
      });
      const text = await answer.text();
      return { status: answer.status, ms: performance.now() - started, text };
    },
  };
}

/** The process's resident memory now and at its peak, from /proc (Linux), in MB. */
function memoryOf(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  const mb = (value) => Math.round((value / 1024) * 10) / 10;
  return { rssMb: mb(kb('VmRSS')), peakRssMb: mb(kb('VmHWM')), anonMb: mb(kb('RssAnon')), fileMb: mb(kb('RssFile')) };
}

const percentile = (values, p) => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 10) / 10;
};

module.exports = { createToken, memoryOf, percentile, privateCopy, registerEditor, startApp, stopServer };
