import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  currentStore,
  dropPostgresDatabase,
  ensurePostgresDatabase,
  postgresDatabaseFor,
  postgresEnv,
  withPostgres,
  type Store,
} from './store';

const CHILD = path.resolve(__dirname, 'service-child.js');
/** How long a stopped service may take to exit (it takes a few seconds) before it is killed. */
const STOP_GRACE_MS = 20_000;

export interface ServiceProcess {
  child: ChildProcess;
  baseUrl: string;
  /** A full-access API token the process issued for itself. */
  token: string;
  /** The store the process runs on (the suite's: SQLite, or PostgreSQL under `npm run test:postgres`). */
  store: Store;
  /** On PostgreSQL, the database that stands for the given file; null on SQLite. */
  databaseName: string | null;
  /** Ends the process the way an operator stops a service, and waits for it. */
  stop: () => Promise<void>;
}

/**
 * The compiled service in a process of its own, listening on a free port: Strapi cannot boot twice
 * in one process, so tests that restart the service use this. `databaseFile` is the SQLite file; on
 * PostgreSQL (DATABASE_CLIENT=postgres) it names a database of the test cluster instead (see
 * `serviceDatabaseName`), created on first use, so every start on one file finds the same data.
 */
export async function startServiceProcess(
  databaseFile: string,
  env: Record<string, string> = {},
  options: { logFile?: string; empty?: boolean } = {},
): Promise<ServiceProcess> {
  const store = currentStore();
  const databaseName = serviceDatabaseName(databaseFile);
  const databaseEnv = await serviceDatabaseEnv(databaseFile, { empty: options.empty });
  // The service's log (its standard output) goes to `logFile` when one is given, for tests of what it logs.
  const log = options.logFile === undefined ? 'ignore' : fs.openSync(options.logFile, 'a');
  const child = fork(CHILD, [], {
    env: { ...process.env, ...databaseEnv, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', log, 'inherit', 'ipc'],
  });
  if (typeof log === 'number') fs.closeSync(log);
  const ready = await new Promise<{ port: number; token: string }>((resolve, reject) => {
    child.once('message', (message) => resolve(message as { port: number; token: string }));
    child.once('exit', (code) => reject(new Error(`the service exited with ${code} before it was ready`)));
  });
  return {
    child,
    baseUrl: `http://127.0.0.1:${ready.port}`,
    token: ready.token,
    store,
    databaseName,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      // As a service manager does: a process that has not exited STOP_GRACE_MS after SIGTERM is
      // killed. Node 24 once hung inside process.exit (the main thread joining a V8 compiler
      // thread that waited for a garbage collection the exiting main thread never ran), and the
      // test file's afterAll timed out with the process left behind.
      const grace = setTimeout(() => {
        process.stderr.write(`[service] pid ${child.pid} still running ${STOP_GRACE_MS} ms after SIGTERM; killed\n`);
        child.kill('SIGKILL');
      }, STOP_GRACE_MS);
      await exited;
      clearTimeout(grace);
    },
  };
}

/**
 * The variables that point the app (a service process, a script such as `npm run token`) at the
 * database that `databaseFile` stands for, creating it on PostgreSQL when it does not exist yet: a
 * copy of the run's template (store.ts), or with `empty: true` a database nothing has booted on.
 * (A SQLite file that does not exist yet is created by the app: empty.)
 */
export async function serviceDatabaseEnv(databaseFile: string, options: { empty?: boolean } = {}): Promise<Record<string, string>> {
  const databaseName = serviceDatabaseName(databaseFile);
  if (databaseName === null) return { DATABASE_FILENAME: databaseFile };
  await ensurePostgresDatabase(databaseName, options);
  return postgresEnv(databaseName);
}

/** The PostgreSQL database service processes started on `databaseFile` use (null on SQLite). */
export function serviceDatabaseName(databaseFile: string): string | null {
  return currentStore() === 'postgres' ? postgresDatabaseFor(databaseFile) : null;
}

/** Drops the PostgreSQL database that stands for `databaseFile` (on SQLite, removing the file's folder is the caller's). */
export async function removeServiceDatabase(databaseFile: string): Promise<void> {
  if (currentStore() === 'postgres') await dropPostgresDatabase(postgresDatabaseFor(databaseFile));
}

/**
 * Runs one SQL statement (with `?` placeholders) on the database service processes use for
 * `databaseFile`, as an operator's tool would, behind the service's back: better-sqlite3 on the
 * file, or pg on its PostgreSQL database.
 */
export async function runSqlBehindTheService(databaseFile: string, sql: string, values: unknown[] = []): Promise<void> {
  if (currentStore() === 'postgres') {
    let index = 0;
    const numbered = sql.replace(/\?/g, () => `$${(index += 1)}`);
    await withPostgres((client) => client.query(numbered, values), postgresDatabaseFor(databaseFile));
    return;
  }
  const database = new Database(databaseFile);
  try {
    database.prepare(sql).run(...values);
  } finally {
    database.close();
  }
}
