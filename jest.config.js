/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tests/tsconfig.json' }] },
  globalSetup: '<rootDir>/tests/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/tests/helpers/global-teardown.ts',
  setupFiles: ['<rootDir>/tests/helpers/test-env.ts'],
  setupFilesAfterEnv: ['<rootDir>/tests/helpers/openapi-setup.ts'],
  testTimeout: 60000,
  // One test file at a time (each boots a Strapi and may start more), in a worker process that is
  // replaced once it holds more than 2 GB after a file: a whole run in one process (--runInBand)
  // outgrew V8's 4 GB heap with ~100 files, each leaving a little of its Strapi behind.
  maxWorkers: 1,
  workerIdleMemoryLimit: '2GB',
};
