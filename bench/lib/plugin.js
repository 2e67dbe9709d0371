// @ts-check
'use strict';

// The plugin's own text helpers (tags, slugs, summaries, reading time, search words), required from
// the compiled app in dist/ so the benchmark cannot drift from what the plugin does. Every bench
// script builds dist/ first (bench/lib/run-steps.js `build()`) unless given --skip-build.

const fs = require('node:fs');
const path = require('node:path');

const UTILS_DIR = path.resolve(__dirname, '..', '..', 'dist', 'src', 'plugins', 'artikel', 'server', 'src', 'utils');

/**
 * One compiled helper module from dist/, typed as its TypeScript source.
 * @param {string} name
 * @returns {any}
 */
function compiled(name) {
  const file = path.join(UTILS_DIR, `${name}.js`);
  if (!fs.existsSync(file)) {
    throw new Error(
      `${path.relative(process.cwd(), file)} is missing: run npm run build first (the benchmark uses the plugin's compiled helpers).`,
    );
  }
  return require(file);
}

/** @type {typeof import('../../src/plugins/artikel/server/src/utils/tags')} */
const tags = compiled('tags');
/** @type {typeof import('../../src/plugins/artikel/server/src/utils/slug-text')} */
const slugText = compiled('slug-text');

/**
 * content.js loads markdown-it and sanitize-html: required on first use only.
 * @returns {typeof import('../../src/plugins/artikel/server/src/utils/content')}
 */
const content = () => compiled('content');

/**
 * search-words.js, on first use.
 * @returns {typeof import('../../src/plugins/artikel/server/src/utils/search-words')}
 */
const searchWords = () => compiled('search-words');

module.exports = { UTILS_DIR, content, searchWords, slugText, tags };
