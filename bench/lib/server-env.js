// @ts-check
'use strict';

const crypto = require('node:crypto');
const path = require('node:path');
const { serviceNodeOptions, serviceStartScript } = require('../../scripts/node-options');
const { withDatabaseEnv } = require('./store');

const APP_DIR = path.resolve(__dirname, '..', '..');
const BENCH_DIR = path.resolve(__dirname, '..');
const DATA_DIR = path.join(BENCH_DIR, '.data');
const RESULTS_DIR = path.join(BENCH_DIR, 'results');

const SECRET_NAMES = ['API_TOKEN_SALT', 'ADMIN_JWT_SECRET', 'TRANSFER_TOKEN_SALT', 'ENCRYPTION_KEY', 'JWT_SECRET'];

const randomSecret = () => crypto.randomBytes(24).toString('base64');

/** Throwaway values for every secret the app reads (see src/secrets.ts). */
function randomSecrets() {
  const secrets = { APP_KEYS: [randomSecret(), randomSecret(), randomSecret(), randomSecret()].join(',') };
  for (const name of SECRET_NAMES) secrets[name] = randomSecret();
  return secrets;
}

/**
 * The environment of every Strapi the benchmark starts: production, quiet, offline, on the bench
 * database. Production refuses to start without its secrets; fresh random ones are enough because
 * no token or session has to survive the run. STRAPI_DISABLE_UPDATE_NOTIFICATION is left out: Strapi
 * 5.54 only warns that it is no longer supported, and config/server.ts already turns the check off.
 * `store` is a SQLite file or a PostgreSQL database (bench/lib/store.js). Node runs with the options
 * `npm start` gives it (V8's heap cap), so the figures are those of the service as it is started.
 */
/**
 * @param {{ store: any, port?: number, extra?: Record<string, string> }} options
 */
function serverEnv({ store, port, extra = {} }) {
  const env = withDatabaseEnv(
    {
      ...process.env,
      NODE_ENV: 'production',
      STRAPI_TELEMETRY_DISABLED: 'true',
      LOG_LEVEL: 'warn',
      ...randomSecrets(),
      HOST: '127.0.0.1',
      NODE_OPTIONS: serviceNodeOptions(),
    },
    store,
  );
  if (port !== undefined) env.PORT = String(port);
  // Production requires the public address links are built on: the server's own (a command that
  // serves nothing, the seeder or the token command, only needs one to start).
  env.PUBLIC_URL = port === undefined ? 'http://127.0.0.1' : `http://127.0.0.1:${port}`;
  // The benchmark-only switch must never leak from the caller's shell into a normal server.
  delete env.ARTIKEL_BENCHMARK;
  // The load generator is one client (one address) with up to 20 connections, where a site's
  // visitors are many: its searches may all wait their turn instead of 8 (a 429 past them).
  env.ARTIKEL_SEARCH_QUEUE = '64';
  return { ...env, ...extra };
}

/** Node's arguments that start our app as `npm start` does (scripts/start.js, from APP_DIR). */
const OURS_START = [serviceStartScript(APP_DIR)];

module.exports = { APP_DIR, BENCH_DIR, DATA_DIR, OURS_START, RESULTS_DIR, randomSecrets, serverEnv };
