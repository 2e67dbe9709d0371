import path from 'node:path';
import type { Core } from '@strapi/strapi';

import { LRUCache } from 'lru-cache';
import { FOLD_SQL_FUNCTION, foldCase } from '../src/plugins/artikel/server/src/utils/search-words';

type SqliteStatement = object;
type SqliteConnection = {
  pragma: (statement: string) => unknown;
  prepare: (sql: string) => SqliteStatement;
  function: (name: string, options: { deterministic: boolean }, implementation: (value: unknown) => unknown) => unknown;
};

// Distinct SQL texts kept prepared per connection: the app's queries are a few hundred shapes.
const PREPARED_STATEMENTS = 500;

/**
 * Knex prepares every query anew on better-sqlite3 (parse and plan, each time the same text); the
 * connection keeps the last PREPARED_STATEMENTS statements and hands a kept one out again. Safe
 * because whatever uses the connection (knex, and the artikel plugin's fixed reads, see its
 * infrastructure/transactions.ts) runs each statement to completion (all() or run()) before the next
 * query, and SQLite re-prepares a kept statement by itself after a schema change.
 */
function keepPreparedStatements(connection: SqliteConnection): void {
  const prepare = connection.prepare.bind(connection);
  const kept = new LRUCache<string, SqliteStatement>({ max: PREPARED_STATEMENTS });
  connection.prepare = (sql: string) => {
    let statement = kept.get(sql);
    if (statement === undefined) {
      statement = prepare(sql);
      kept.set(sql, statement);
    }
    return statement;
  };
}

/**
 * SQLite is the default: one file, nothing to start. WAL lets reads run while a write commits;
 * synchronous=NORMAL (safe in WAL mode) keeps every commit across a process crash and only risks
 * the last commits on power loss, which is what lets every article read count its view cheaply.
 */
const databaseConfig = ({ env }: Core.Config.Shared.ConfigParams): Core.Config.Database => {
  const client = env('DATABASE_CLIENT', 'sqlite');

  if (client === 'postgres') {
    return {
      connection: {
        client: 'postgres',
        // A failed query's error names its SQL without the values (see the artikel plugin's database-errors.ts).
        compileSqlOnError: false,
        connection: {
          connectionString: env('DATABASE_URL'),
          host: env('DATABASE_HOST', 'localhost'),
          port: env.int('DATABASE_PORT', 5432),
          database: env('DATABASE_NAME', 'strapi'),
          user: env('DATABASE_USERNAME', 'strapi'),
          // No default password: pg reads an empty one as none given, and takes PGPASSWORD or
          // ~/.pgpass instead (or the one in DATABASE_URL); else the server's own rules decide.
          password: env('DATABASE_PASSWORD', ''),
          ssl: env.bool('DATABASE_SSL', false) ? { rejectUnauthorized: env.bool('DATABASE_SSL_REJECT_UNAUTHORIZED', true) } : false,
          schema: env('DATABASE_SCHEMA', 'public'),
        },
        pool: { min: env.int('DATABASE_POOL_MIN', 2), max: env.int('DATABASE_POOL_MAX', 10) },
        acquireConnectionTimeout: env.int('DATABASE_CONNECTION_TIMEOUT', 60000),
      },
    };
  }

  // Compiled config lives in dist/config, so the app root is two levels up.
  const appRoot = path.resolve(__dirname, '..', '..');
  return {
    connection: {
      client: 'sqlite',
      // A failed query's error names its SQL without the values (see the artikel plugin's database-errors.ts).
      compileSqlOnError: false,
      connection: {
        filename: path.resolve(appRoot, env('DATABASE_FILENAME', '.tmp/data.db')),
      },
      useNullAsDefault: true,
      pool: {
        afterCreate: (conn: unknown, done: (error?: Error, conn?: unknown) => void) => {
          const connection = conn as SqliteConnection;
          connection.pragma('journal_mode = WAL');
          connection.pragma(`synchronous = ${env('DATABASE_SQLITE_SYNCHRONOUS', 'NORMAL')}`);
          connection.pragma('busy_timeout = 5000');
          // A log a checkpoint could not empty (a build's, while a reader held an older snapshot: see the
          // artikel plugin's bulk-writes.ts) is cut back to 128 MB the next time a write starts it over:
          // above the 100 MB a build lets it reach, so a build's own checkpoints never cut and regrow it.
          connection.pragma(`journal_size_limit = ${128 * 1024 * 1024}`);
          // Each connection (the writer and the public reads' read-only one, see the artikel plugin's
          // infrastructure/transactions.ts) keeps up to this many MB of the file's pages (default 16).
          connection.pragma(`cache_size = ${-1024 * env.int('DATABASE_SQLITE_CACHE_MB', 16)}`);
          connection.pragma('temp_store = MEMORY');
          // A memory map (DATABASE_SQLITE_MMAP_MB, off by default) reads faster, but every mapped page
          // counts in the process's resident memory (RSS), once per connection: at 100,000 articles
          // 256 MB took the process past 500 MB at start.
          connection.pragma(`mmap_size = ${env.int('DATABASE_SQLITE_MMAP_MB', 0) * 1024 * 1024}`);
          keepPreparedStatements(connection);
          // SQLite's LOWER folds ASCII only: the artikel plugin's searches and tag scans fold case
          // with this function, as its index and PostgreSQL's word index do (see its search-words.ts).
          connection.function(FOLD_SQL_FUNCTION, { deterministic: true }, (value) => (typeof value === 'string' ? foldCase(value) : value));
          done(undefined, connection);
        },
      },
    },
  };
};

export default databaseConfig;
