// @ts-check
const path = require('node:path');
const { TestEnvironment } = require('jest-environment-node');
const { isTimingFile } = require('./test-tags');

/**
 * Jest's Node environment, with Strapi loaded by Node itself rather than by Jest.
 *
 * Jest loads every module anew for each test file, in its sandbox: Strapi's 3,300 modules cost
 * each file about 1.4 CPU-seconds that way. This environment hands the test files Node's own
 * `require` (`hostRequire`, see host-modules.ts), so the packages are loaded once per worker and
 * kept for the worker's next files, as a service process keeps them. What a file must not inherit
 * is undone as each file begins:
 * - the app's own modules (its build, `config/`, the plugin's entry: every module outside
 *   node_modules) leave Node's cache, so each file's Strapi loads the app fresh;
 * - the worker's environment goes back to what the worker started with, and the file's
 *   `process.env` is the worker's own (Jest would give it a copy Strapi never reads).
 * Strapi's `destroy()` removes every listener of the process, the worker's own included: the test
 * helper that stops an app puts them back (host-modules.ts `keepingWorkerListeners`).
 */
const NODE_MODULES = `${path.sep}node_modules${path.sep}`;
/** @type {NodeJS.ProcessEnv | undefined} */
let startingEnv;

/** The worker's environment as the worker started, and none of the earlier files' app modules. */
function undoEarlierFiles() {
  startingEnv ??= { ...process.env };
  for (const name of Object.keys(process.env)) {
    if (!(name in startingEnv)) delete process.env[name];
  }
  Object.assign(process.env, startingEnv);
  for (const file of Object.keys(require.cache)) {
    if (!file.includes(NODE_MODULES) && file !== __filename) delete require.cache[file];
  }
}

class HostModulesEnvironment extends TestEnvironment {
  /** @param {ConstructorParameters<typeof TestEnvironment>} args */
  constructor(...args) {
    // Before Jest copies the environment for a file that keeps its own loading.
    undoEarlierFiles();
    super(...args);
    const [, context] = args;
    // The files that measure time in the test process (tagged `@timing`, see test-tags.js) keep
    // Jest's own loading: their bounds were set with it. With Strapi loaded once per worker, the
    // first requests of cursor-and-parameter-attacks' 1,000-parameter attack met young-generation
    // collections of 65–115 ms each (what they allocated was promoted instead of collected),
    // 300–700 ms per 5 requests where Jest's loading took 100–180 ms; a service process answered
    // the same requests in 85 ms, then at most 27. Why the shared heap behaves so was not found.
    if (isTimingFile(context.testPath)) return;
    this.global.process.env = process.env;
    // A test's dates reach Strapi's database drivers, which know a date by `instanceof Date`: the
    // sandbox's own Date would be bound as an object.
    this.global.Date = Date;
    Object.assign(this.global, { artikelHost: { require, process } });
  }
}

module.exports = HostModulesEnvironment;
