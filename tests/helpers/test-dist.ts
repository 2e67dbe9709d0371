import path from 'node:path';

/**
 * Where the test suites compile the app: a folder of their own, never dist/, so that a running
 * demo or service keeps its build (and its admin panel) while the tests run. The global setup sets
 * ARTIKEL_DIST_DIR to it, which the plugin's strapi-server.js and every child process read.
 */
export const TEST_DIST_DIR = path.resolve(__dirname, '..', '..', '.tmp', 'test-dist');

export const testDistDir = (): string => process.env.ARTIKEL_DIST_DIR ?? TEST_DIST_DIR;
