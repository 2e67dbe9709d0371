'use strict';

// Starts and stops the compiled LongReads many times, each stop landing a little later into its
// thread's start, so that some land while the thread loads better-sqlite3's native module. Prints
// how many rounds it survived; a stop that lands badly aborts this process (not the test runner).
const path = require('node:path');
const Database = require('better-sqlite3');

const distDir = process.env.ARTIKEL_DIST_DIR;
const { LongReads } = require(path.join(distDir, 'src/plugins/artikel/server/src/infrastructure/long-reads.js'));

const [filename, roundsText] = process.argv.slice(2);
const rounds = Number(roundsText);
const BUDGET_MS = 60_000;

const spin = (ms) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

(async () => {
  const setup = new Database(filename);
  setup.exec('CREATE TABLE IF NOT EXISTS probe (x)');
  setup.close();

  // How long a thread takes from its start to its first answer, here and now: the stops sweep it.
  // The median of five starts after a first one: the first loads the driver's files from disk and
  // takes half as long again, which would put most stops after the driver had loaded.
  const starts = [];
  for (let probe = 0; probe < 6; probe += 1) {
    const reads = new LongReads(filename, async () => [], BUDGET_MS);
    const started = performance.now();
    await reads.rows('SELECT 1 AS one', []);
    if (probe > 0) starts.push(performance.now() - started);
    await reads.close();
  }
  const startMs = starts.sort((a, b) => a - b)[2];

  let settled = 0;
  for (let round = 0; round < rounds; round += 1) {
    const reads = new LongReads(filename, async () => [], BUDGET_MS);
    // Answered, or refused because the thread was stopped: either way it settles.
    const read = reads.rows('SELECT 1 AS one', []).then(
      () => undefined,
      () => undefined,
    );
    // The thread's setup begins once the settings are read (one turn of the event loop); the
    // driver loads at about 0.8 of the thread's start.
    await new Promise((resolve) => setImmediate(resolve));
    spin(startMs * (0.4 + (0.7 * round) / rounds));
    await reads.close();
    await read;
    settled += 1;
  }
  process.stdout.write(JSON.stringify({ rounds, settled, startMs }));
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
