// @ts-check
'use strict';

// A throwaway PostgreSQL cluster for one benchmark run, through scripts/postgres-cluster.sh (which
// needs root or the postgres user, and installs PostgreSQL from Debian's packages when it is missing).

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const SCRIPT = path.resolve(__dirname, '..', '..', 'scripts', 'postgres-cluster.sh');

/** The `export NAME=value` lines the script prints, as an object. */
function parseExports(text) {
  return Object.fromEntries(
    text
      .split('\n')
      .map((line) => /^export (\w+)=(.*)$/.exec(line))
      .filter(Boolean)
      .map(([, name, value]) => [name, value.replace(/^'|'$/g, '')]),
  );
}

/** Starts a cluster in a fresh folder under the system's temp folder; returns { dir, env }. */
function startCluster() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-pg-bench-'));
  try {
    // The script's progress goes to stderr, which is the caller's; its stdout is the variables.
    const env = parseExports(execFileSync('bash', [SCRIPT, 'start', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
    if (!env.DATABASE_HOST || !env.DATABASE_PORT) throw new Error('scripts/postgres-cluster.sh printed no DATABASE_HOST/DATABASE_PORT');
    return { dir, env };
  } catch (error) {
    stopCluster(dir);
    throw error;
  }
}

/** Stops the cluster and removes its folder; never throws, so it can run on any way out. */
function stopCluster(dir) {
  try {
    execFileSync('bash', [SCRIPT, 'stop', dir], { stdio: ['ignore', 'inherit', 'inherit'] });
  } catch (error) {
    process.stderr.write(`Could not stop the PostgreSQL cluster in ${dir}: ${/** @type {Error} */ (error).message}\n`);
  }
}

module.exports = { parseExports, startCluster, stopCluster };
