import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const APP_DIR = path.resolve(__dirname, '..', '..');
const run = promisify(execFile);
// The data-transfer commands write a diagnostic log into the working folder.
const DIAGNOSTIC_LOG = /^(export|import|transfer)_\d+\.log$/;

/** The variables that point a command at a SQLite file. */
export const sqliteEnv = (file: string): Record<string, string> => ({ DATABASE_CLIENT: 'sqlite', DATABASE_FILENAME: file });

/** Strapi's command line, as `npx strapi` runs it. */
const STRAPI_BIN = path.join(APP_DIR, 'node_modules', '.bin', 'strapi');
/** Hands the command the suites' own build instead of its compile into dist/ (see the file). */
const USE_SUITE_BUILD = path.join(__dirname, 'strapi-cli-preload.js');

/**
 * Runs the Strapi CLI in the app folder, as an operator would, on the store `env` names, on the
 * build the suites compiled (an operator's command compiles the app into dist/ first). A failure
 * carries the command's output and its diagnostic log (the CLI itself says only that it failed);
 * the logs it wrote are removed either way.
 *
 * The command gets a public folder of its own (PUBLIC_DIR, removed afterwards) unless `env` names
 * one: `strapi import` moves the public folder's uploads/ aside and deletes it once the archive's
 * files are in, and the app's own public/uploads holds the files of the test files running beside
 * it (a photo test on the other worker read 404s where its renditions had been).
 */
export async function strapiCli(args: string[], env: Record<string, string>): Promise<void> {
  const ownPublicDir = env.PUBLIC_DIR === undefined ? fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-cli-public-')) : null;
  if (ownPublicDir !== null) fs.mkdirSync(path.join(ownPublicDir, 'uploads'));
  const commandEnv: Record<string, string | undefined> = {
    ...process.env,
    STRAPI_TELEMETRY_DISABLED: 'true',
    LOG_LEVEL: 'error',
    ...(ownPublicDir === null ? {} : { PUBLIC_DIR: ownPublicDir }),
    ...env,
  };
  // The suite's PostgreSQL settings must not leak into a command meant for a SQLite file.
  if (env.DATABASE_CLIENT === 'sqlite') for (const name of ['DATABASE_URL', 'DATABASE_NAME', 'DATABASE_HOST']) delete commandEnv[name];
  const diagnostics = () => fs.readdirSync(APP_DIR).filter((name) => DIAGNOSTIC_LOG.test(name));
  const earlier = new Set(diagnostics());
  const written = () => diagnostics().filter((name) => !earlier.has(name));
  try {
    await run(process.execPath, ['--require', USE_SUITE_BUILD, STRAPI_BIN, ...args], {
      cwd: APP_DIR,
      env: commandEnv,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const logs = written().map((name) => fs.readFileSync(path.join(APP_DIR, name), 'utf8'));
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`strapi ${args[0]} failed:\n${stdout}\n${stderr}\n${logs.join('\n').slice(-4000)}`, { cause: error });
  } finally {
    for (const name of written()) fs.rmSync(path.join(APP_DIR, name), { force: true });
    if (ownPublicDir !== null) fs.rmSync(ownPublicDir, { recursive: true, force: true });
  }
}
