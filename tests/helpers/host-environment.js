// @ts-check
const path = require('node:path');
const { TestEnvironment } = require('jest-environment-node');

/**
 * Jest's Node environment, with Strapi loaded by Node itself rather than by Jest.
 *
 * Jest loads every module anew for each test file, in its sandbox: Strapi's 3,300 modules cost
 * each file about 2 CPU-seconds that way. This environment hands the test files Node's own
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

class HostModulesEnvironment extends TestEnvironment {
  /** @param {ConstructorParameters<typeof TestEnvironment>} args */
  constructor(...args) {
    super(...args);
    startingEnv ??= { ...process.env };
    for (const name of Object.keys(process.env)) {
      if (!(name in startingEnv)) delete process.env[name];
    }
    Object.assign(process.env, startingEnv);
    for (const file of Object.keys(require.cache)) {
      if (!file.includes(NODE_MODULES) && file !== __filename) delete require.cache[file];
    }
    this.global.process.env = process.env;
    // A test's dates reach Strapi's database drivers, which know a date by `instanceof Date`: the
    // sandbox's own Date would be bound as an object.
    this.global.Date = Date;
    Object.assign(this.global, { artikelHost: { require, process } });
  }
}

module.exports = HostModulesEnvironment;
