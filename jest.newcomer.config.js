/**
 * The newcomer's suite (`npm run test:newcomer`): the README's demo command on a fresh clone with
 * the machine's own Node (Debian's 20 on CI). Kept out of `npm test`: it installs and builds a whole
 * copy of the project (about four minutes).
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests/newcomer'],
  testMatch: ['**/*.newcomer.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tests/tsconfig.json' }] },
  maxWorkers: 1,
  testTimeout: 60000,
};
