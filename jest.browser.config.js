/**
 * The browser suite (`npm run test:browser`): an editor's day in Chromium against a production
 * build. Kept out of `npm test` (whose testMatch is *.test.ts); it builds and serves its own copy.
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests/browser'],
  testMatch: ['**/*.e2e.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tests/tsconfig.json' }] },
  maxWorkers: 1,
  testTimeout: 60000,
};
