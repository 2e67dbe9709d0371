import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createTestTemplate, currentStore, withPostgres } from './store';
import { TEST_DIST_DIR } from './test-dist';
// The tests' secrets and settings, here for the template's boot too, which must not write the
// development secrets file either; the workers inherit them.
import './test-env';

/**
 * Compiles the app once per run into the tests' own folder (emptied first, so no test ever runs
 * stale compiled code); dist/, the build a running service uses, is left as it is.
 */
export default async function globalSetup(): Promise<void> {
  // On PostgreSQL, fail at once (not in every file's beforeAll) when the server cannot be reached
  // or the user may not create the per-test databases.
  if (currentStore() === 'postgres') {
    const server = await withPostgres(async (client) => {
      const { rows } = await client.query(
        'SELECT version() AS version, (SELECT rolsuper OR rolcreatedb FROM pg_roles WHERE rolname = current_user) AS may_create',
      );
      if (rows[0].may_create !== true)
        throw new Error('the PostgreSQL user may not create databases (CREATEDB is needed: one database per test file)');
      return String(rows[0].version);
    }).catch((error: Error) => {
      throw new Error(
        `DATABASE_CLIENT=postgres, but ${error.message} (start a cluster with npm run test:postgres, or set DATABASE_HOST/_PORT/_USERNAME/_PASSWORD/_NAME)`,
      );
    });
    process.stdout.write(
      `\nTesting on ${server.split(' on ')[0]} at ${process.env.DATABASE_URL ? 'DATABASE_URL' : `${process.env.DATABASE_HOST}:${process.env.DATABASE_PORT ?? 5432}`}\n`,
    );
  }
  const appDir = path.resolve(__dirname, '..', '..');
  // Each test file adds the number of answers it checked against the OpenAPI document; the teardown sums them.
  process.env.ARTIKEL_OPENAPI_TALLY = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-openapi-')), 'tally');
  process.env.STRAPI_TELEMETRY_DISABLED = 'true';
  process.env.ARTIKEL_DIST_DIR = TEST_DIST_DIR;
  // The second pass of scripts/test.sh runs on the build its first pass compiled a moment before.
  if (process.env.ARTIKEL_TEST_DIST_READY !== '1' || !fs.existsSync(path.join(TEST_DIST_DIR, 'src', 'index.js'))) compile(appDir);
  // In a whole run (scripts/test.sh), a new test database is a copy of one the app booted on once
  // (store.ts): about a hundred boots save more than the template's one costs, which a run of a
  // file or two does not.
  if (process.env.ARTIKEL_TEST_PASS !== undefined) await createTestTemplate(TEST_DIST_DIR);
}

function compile(appDir: string): void {
  fs.rmSync(TEST_DIST_DIR, { recursive: true, force: true });
  // What strapi build's compile step does (tsc with the app's tsconfig.json), into another folder.
  const tsc = require.resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', path.join(appDir, 'tsconfig.json'), '--outDir', TEST_DIST_DIR, '--incremental', 'false'], {
    cwd: appDir,
    stdio: 'inherit',
  });
}
