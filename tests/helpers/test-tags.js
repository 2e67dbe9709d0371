// @ts-check
const fs = require('node:fs');
const path = require('node:path');

/**
 * What a test file says of itself with a tag in its first 400 characters, read by jest.config.js
 * (which pass runs it, whether test:postgres does) and by the test environment (host-environment.js).
 *
 * `@timing`: the file asserts a time bound (a loop delay beside an attack, a linear scaling, a
 * latency, a lateness). Measured beside another file's Strapi, its bound would be the other file's
 * load: `npm test` runs such files one at a time, after the others.
 */
const TIMING_TAG = /@timing\b/;
/**
 * `@same-on-every-store`: the file's subject happens before or apart from the database (a photo's
 * bytes, a header, the admin's strings, a text step's time), each file saying why beside the tag.
 * With the unit tests (pure helpers, no database), `npm run test:postgres` leaves them out; they
 * run in `npm test`.
 */
const STORE_INDEPENDENT_TAG = /@same-on-every-store\b/;
const UNIT_FOLDER = path.join(__dirname, '..', 'unit') + path.sep;

/** @param {string} file */
const headOf = (file) => fs.readFileSync(file, 'utf8').slice(0, 400);
/** @param {string} file */
const isTimingFile = (file) => TIMING_TAG.test(headOf(file));
/** @param {string} file */
const isStoreIndependent = (file) => file.startsWith(UNIT_FOLDER) || STORE_INDEPENDENT_TAG.test(headOf(file));

module.exports = { isTimingFile, isStoreIndependent };
