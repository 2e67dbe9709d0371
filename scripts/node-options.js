'use strict';

// The Node options `npm start` runs the service with, for the launchers that start `strapi start`
// themselves (the benchmark, the browser test): they must measure and test what `npm start` runs.

const { config } = require('../package.json');

/**
 * NODE_OPTIONS for a service process: V8's old space capped at package.json's `config.heap_mb`,
 * then the caller's own options, which come later and so win (a `--max-old-space-size` of theirs
 * replaces the cap). Same order as the `start` script.
 */
function serviceNodeOptions(callerOptions = process.env.NODE_OPTIONS) {
  return [`--max-old-space-size=${config.heap_mb}`, callerOptions].filter(Boolean).join(' ');
}

module.exports = { serviceNodeOptions };
