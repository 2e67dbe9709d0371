const fs = require('node:fs');
const path = require('node:path');
const { isStoreIndependent, isTimingFile } = require('./tests/helpers/test-tags');

function testFiles(folder) {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

// A path pattern matching exactly these files (jest matches the patterns against absolute paths).
const exactly = (files) => files.map((file) => `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/**
 * `npm test` runs in two passes (scripts/test.sh): first every file that asserts no time bound, two
 * at a time; then, one at a time, the files tagged `@timing` (see tests/helpers/test-tags.js).
 * ARTIKEL_TEST_PASS picks the pass; without it (`npx jest tests/…`) every file runs, one at a time.
 * `npm run test:postgres` (DATABASE_CLIENT=postgres) leaves out the unit tests and the files tagged
 * `@same-on-every-store`, which `npm test` runs.
 */
const pass = process.env.ARTIKEL_TEST_PASS;
if (pass !== undefined && pass !== 'parallel' && pass !== 'timing')
  throw new Error(`ARTIKEL_TEST_PASS is "parallel", "timing" or unset, not "${pass}"`);
const onPostgres = ['postgres', 'postgresql', 'pg'].includes((process.env.DATABASE_CLIENT ?? '').toLowerCase());
const allFiles = pass === undefined ? [] : testFiles(path.join(__dirname, 'tests'));
const timingFiles = allFiles.filter(isTimingFile);
// Left out of both passes (never of a run that names its files).
const skippedFiles = onPostgres ? allFiles.filter(isStoreIndependent) : [];

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: '<rootDir>/tests/helpers/host-environment.js',
  roots: ['<rootDir>/tests'],
  ...(pass === 'timing' ? { testRegex: exactly(timingFiles) } : { testMatch: ['**/*.test.ts'] }),
  ...(pass === undefined
    ? {}
    : { testPathIgnorePatterns: ['/node_modules/', ...exactly(pass === 'parallel' ? [...timingFiles, ...skippedFiles] : skippedFiles)] }),
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tests/tsconfig.json' }] },
  globalSetup: '<rootDir>/tests/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/tests/helpers/global-teardown.ts',
  setupFiles: ['<rootDir>/tests/helpers/test-env.ts'],
  setupFilesAfterEnv: ['<rootDir>/tests/helpers/openapi-setup.ts'],
  testTimeout: 60000,
  // Each test file boots a Strapi (and may start more) in a worker process that is replaced once it
  // holds more than 2 GB after a file: a whole run in one process (--runInBand) outgrew V8's 4 GB
  // heap with ~100 files, each leaving a little of its Strapi behind. Two workers on the files
  // without a time bound: 1.37× faster on 2 cores (839 → 611 s for those files in one run).
  maxWorkers: pass === 'parallel' ? 2 : 1,
  workerIdleMemoryLimit: '2GB',
};
