import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * Which store the suite runs on: SQLite by default (`npm test`), PostgreSQL when the environment
 * says DATABASE_CLIENT=postgres (`npm run test:postgres` starts a throwaway cluster and sets it,
 * with DATABASE_HOST, _PORT, _USERNAME, _PASSWORD and DATABASE_NAME, the database the helpers
 * connect to when they create and drop the per-test databases).
 */
export type Store = 'sqlite' | 'postgres';

export function currentStore(): Store {
  const client = (process.env.DATABASE_CLIENT ?? 'sqlite').toLowerCase();
  if (client === 'postgres' || client === 'postgresql' || client === 'pg') return 'postgres';
  if (client === 'sqlite' || client === 'better-sqlite3') return 'sqlite';
  throw new Error(`the tests run on sqlite or postgres, not DATABASE_CLIENT=${client}`);
}

/** The smallest part of pg's Client the helpers use (the project does not depend on @types/pg). */
interface PgClient {
  connect(): Promise<void>;
  query(sql: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}
type PgClientConstructor = new (config: Record<string, unknown>) => PgClient;

function urlWithDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

// The database the helpers connect to for CREATE/DROP DATABASE: the one the environment named
// before any helper pointed DATABASE_NAME (or DATABASE_URL) at a test database.
const maintenanceDatabase =
  process.env.ARTIKEL_TEST_MAINTENANCE_DATABASE ??
  (process.env.DATABASE_URL ? decodeURIComponent(new URL(process.env.DATABASE_URL).pathname.slice(1)) : process.env.DATABASE_NAME) ??
  'postgres';
process.env.ARTIKEL_TEST_MAINTENANCE_DATABASE = maintenanceDatabase;

/**
 * The variables that point config/database.ts at one database (DATABASE_URL, when set, wins over
 * DATABASE_NAME there, so its path is replaced).
 */
export function postgresEnv(database: string): Record<string, string> {
  const env: Record<string, string> = { DATABASE_CLIENT: 'postgres', DATABASE_NAME: database };
  if (process.env.DATABASE_URL) env.DATABASE_URL = urlWithDatabase(process.env.DATABASE_URL, database);
  return env;
}

/** pg's connection settings from the same variables config/database.ts reads, on one database. */
export function postgresConnection(database: string): Record<string, unknown> {
  const ssl =
    process.env.DATABASE_SSL === 'true' ? { rejectUnauthorized: process.env.DATABASE_SSL_REJECT_UNAUTHORIZED !== 'false' } : false;
  if (process.env.DATABASE_URL) return { connectionString: urlWithDatabase(process.env.DATABASE_URL, database), ssl };
  return {
    host: process.env.DATABASE_HOST ?? 'localhost',
    port: Number(process.env.DATABASE_PORT ?? 5432),
    user: process.env.DATABASE_USERNAME ?? 'strapi',
    password: process.env.DATABASE_PASSWORD ?? 'strapi',
    database,
    ssl,
  };
}

/** Runs `work` with a pg client on `database` (default: the maintenance database), then closes it. */
export async function withPostgres<T>(work: (client: PgClient) => Promise<T>, database = maintenanceDatabase): Promise<T> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Client } = require('pg') as { Client: PgClientConstructor };
  const client = new Client({ ...postgresConnection(database), connectionTimeoutMillis: 10000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Runs `work` on a read-only connection of its own to a SQLite file (what is stored, read behind the
 * service, whose write connection may be held), then closes it.
 */
export function withSqliteFile<T>(file: string, work: (database: Database.Database) => T): T {
  const database = new Database(file, { readonly: true });
  try {
    return work(database);
  } finally {
    database.close();
  }
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The PostgreSQL database that stands for a test's SQLite file: a test that keeps its "database
 * file" to restart on it (a stopped TestApp, a service process) gets the same database back.
 */
export function postgresDatabaseFor(databaseFile: string): string {
  return `artikel_test_${crypto.createHash('sha256').update(databaseFile).digest('hex').slice(0, 24)}`;
}

/**
 * The database a test database is copied from: the one the global setup booted the app on once
 * (ARTIKEL_TEST_TEMPLATE_DATABASE), so a test's first boot finds Strapi's tables and seeds as a
 * restarted service does instead of creating them (about 3 s a boot on PostgreSQL); template0, an
 * empty database, when there is none or the test asks for an empty one.
 */
function templateOf(options: { empty?: boolean }): string {
  const template = process.env.ARTIKEL_TEST_TEMPLATE_DATABASE;
  return options.empty === true || template === undefined || template === '' ? 'template0' : template;
}

/**
 * Creates the database unless it exists (one database per test file, so each file runs alone),
 * as a copy of the run's template (see templateOf); `empty: true` for a database nothing has
 * booted on yet (a data import's destination).
 * Safe when several processes ask for one database at once (instances started together): they
 * take turns on an advisory lock, and a creation that lost a race anyway counts as done.
 */
export async function ensurePostgresDatabase(name: string, options: { empty?: boolean } = {}): Promise<void> {
  await withPostgres(async (client) => {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`artikel-test-database:${name}`]);
    try {
      const { rows } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (rows.length > 0) return;
      try {
        await client.query(`CREATE DATABASE ${quoted(name)} ENCODING 'UTF8' TEMPLATE ${quoted(templateOf(options))}`);
      } catch (error) {
        // 42P04 duplicate_database; 23505 when two CREATEs meet on pg_database's unique index.
        const code = (error as { code?: string }).code;
        if (code !== '42P04' && code !== '23505') throw error;
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`artikel-test-database:${name}`]);
    }
  });
}

/** Drops the database, closing any connection a killed process left behind. */
export async function dropPostgresDatabase(name: string): Promise<void> {
  await withPostgres((client) => client.query(`DROP DATABASE IF EXISTS ${quoted(name)} WITH (FORCE)`));
}

const TEMPLATE_FOLDER_PREFIX = 'artikel-template-';
const TEMPLATE_DATABASE_PREFIX = 'artikel_test_template_';

/** Whether a folder is one createTestTemplate made: in the temporary folder, named by its prefix. */
const isTemplateFolder = (folder: string): boolean =>
  path.dirname(path.resolve(folder)) === path.resolve(os.tmpdir()) && path.basename(folder).startsWith(TEMPLATE_FOLDER_PREFIX);

/**
 * Makes the run's template database, the one test databases are copied from: the compiled app in
 * `distDir` boots on it once, in a child process. On PostgreSQL a database of the cluster
 * (ARTIKEL_TEST_TEMPLATE_DATABASE, see templateOf); on SQLite a file (ARTIKEL_TEST_TEMPLATE_FILE,
 * see copySqliteTemplate). A copy skips what a first boot does (creating Strapi's tables, seeding
 * its roles): about 2 s of each boot on SQLite, 4 s on PostgreSQL, measured on 2 loaded cores.
 */
export async function createTestTemplate(distDir: string): Promise<void> {
  const boot = (env: Record<string, string>) =>
    execFileSync(process.execPath, [path.join(__dirname, 'template-boot.js')], {
      env: { ...process.env, ...env, ARTIKEL_DIST_DIR: distDir },
      stdio: ['ignore', 'ignore', 'inherit'],
      timeout: 180000,
    });
  if (currentStore() === 'sqlite') {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), TEMPLATE_FOLDER_PREFIX)), 'template.db');
    boot({ DATABASE_FILENAME: file });
    process.env.ARTIKEL_TEST_TEMPLATE_FILE = file;
    return;
  }
  const name = `${TEMPLATE_DATABASE_PREFIX}${process.pid}_${Date.now().toString(36)}`;
  await ensurePostgresDatabase(name, { empty: true });
  try {
    boot(postgresEnv(name));
  } catch (error) {
    await dropPostgresDatabase(name);
    throw error;
  }
  process.env.ARTIKEL_TEST_TEMPLATE_DATABASE = name;
}

/** Removes the run's template database (the global teardown). */
export async function removeTestTemplate(): Promise<void> {
  // Only what createTestTemplate makes: a variable set by hand (a file in /tmp itself, a database of
  // one's own) must never take its folder or its database with it.
  const file = process.env.ARTIKEL_TEST_TEMPLATE_FILE;
  if (file !== undefined && isTemplateFolder(path.dirname(file))) fs.rmSync(path.dirname(file), { recursive: true, force: true });
  const database = process.env.ARTIKEL_TEST_TEMPLATE_DATABASE;
  if (database !== undefined && database.startsWith(TEMPLATE_DATABASE_PREFIX)) await dropPostgresDatabase(database);
}

/**
 * Starts a new SQLite test database at `file` as a copy of the run's template, when there is one
 * (the app's first boot on it then finds Strapi's tables, as a restarted service does).
 */
export function copySqliteTemplate(file: string): void {
  const template = process.env.ARTIKEL_TEST_TEMPLATE_FILE;
  if (template === undefined || template === '' || fs.existsSync(file)) return;
  fs.copyFileSync(template, file);
  // The template's app closed it, which folds its write-ahead log into the file; a log left over
  // would hold part of the template, so it goes along.
  if (fs.existsSync(`${template}-wal`)) fs.copyFileSync(`${template}-wal`, `${file}-wal`);
}
