'use strict';

// How `npm start` runs the service (its script and its Node options), for the launchers that start
// it themselves (the benchmark, the browser test): they must measure and test what `npm start` runs.

const path = require('node:path');
const { config } = require('../package.json');

/** The script `npm start` serves the app with, in the app folder `appDir` (see scripts/start.js). */
const serviceStartScript = (appDir) => path.join(appDir, 'scripts', 'start.js');

/**
 * NODE_OPTIONS for a service process: V8's old space capped at package.json's `config.heap_mb` and
 * its young generation's semi-spaces at `config.semi_space_mb`, then the caller's own options, which
 * come later and so win (a `--max-old-space-size` of theirs replaces the cap). Same order as the
 * `start` script. Why the semi-spaces: Node 24's V8 lets them grow to 64 MB each on a machine with
 * much memory (Node 20's stopped at 16), and the app's start fills them: at 100,000 articles its
 * peak RSS was 417 MB during the index build with them, 328 MB capped at 16, with the same build
 * time and read throughput (bench/README.md, Memory).
 */
function serviceNodeOptions(callerOptions = process.env.NODE_OPTIONS) {
  return [`--max-old-space-size=${config.heap_mb}`, `--max-semi-space-size=${config.semi_space_mb}`, callerOptions]
    .filter(Boolean)
    .join(' ');
}

module.exports = { serviceNodeOptions, serviceStartScript };
