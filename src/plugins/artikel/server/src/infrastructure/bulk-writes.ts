import type { Core } from '@strapi/strapi';
import { isSqlite } from './database-dialect';
import { database } from './transactions';

/**
 * Pages the WAL may hold before a commit copies them into the database file while a build runs
 * (SQLite's default is 1,000: 4 MB). About 100 MB, which the build's end gives back (see
 * SearchIndex.settle).
 */
const BULK_WAL_PAGES = 25_000;

/**
 * Runs a build's chunks of writes with SQLite's WAL checkpointed every BULK_WAL_PAGES pages instead
 * of every 1,000, and sets it back after. A chunk changes 1 to 3 MB of pages, so nearly every
 * chunk's commit copied the WAL into the file, with two fsyncs, and a page changed by several
 * chunks (the tag indexes', the word index's) was copied each time: at 100,000 articles the
 * commits took 12 of the chunks' 22 s, 6.5 s at 25,000 pages. Nothing on PostgreSQL.
 */
export async function withBulkWrites<T>(strapi: Core.Strapi, work: () => Promise<T>): Promise<T> {
  if (!isSqlite(strapi)) return work();
  const knex = database(strapi);
  const rows = (await knex.raw('PRAGMA wal_autocheckpoint')) as Array<{ wal_autocheckpoint: number }>;
  const before = Number(rows[0]?.wal_autocheckpoint ?? 1000);
  // PRAGMA takes no bound value; both are integers of ours.
  await knex.raw(`PRAGMA wal_autocheckpoint = ${Math.max(before, BULK_WAL_PAGES)}`);
  try {
    return await work();
  } finally {
    await knex.raw(`PRAGMA wal_autocheckpoint = ${Math.trunc(before)}`);
  }
}

/** What truncateWalIfUnread uses of the pool's better-sqlite3 connection. */
interface PragmaConnection {
  pragma(statement: string, options?: { simple: boolean }): unknown;
}

interface ConnectionPool {
  acquireConnection(): Promise<PragmaConnection>;
  releaseConnection(connection: PragmaConnection): Promise<void>;
}

/**
 * Gives a build's WAL disk space back (checkpoint and truncate) unless a reader still needs its
 * frames, without waiting for that reader. SQLite waits for readers of an older snapshot in its
 * busy handler, up to busy_timeout (5 s), and better-sqlite3 waits on the service's thread: a
 * search reading on the long-read thread at a build's end held every request for those 5 s. The
 * log is then reused as it is; one larger than journal_size_limit (config/database.ts) is cut back
 * to it the next time a write starts the log over. Returns whether the log was emptied. Nothing on
 * PostgreSQL.
 */
export async function truncateWalIfUnread(strapi: Core.Strapi): Promise<boolean> {
  if (!isSqlite(strapi)) return false;
  const pool = strapi.db.connection.client as unknown as ConnectionPool;
  // Held from the pool, so no query of another request runs between the three statements, which
  // are synchronous anyway: none of them sees the busy_timeout of 0.
  const connection = await pool.acquireConnection();
  try {
    const waitMs = Number(connection.pragma('busy_timeout', { simple: true }));
    connection.pragma('busy_timeout = 0');
    try {
      // The first column of SQLite's answer: 1 when a reader kept the checkpoint from finishing.
      return Number(connection.pragma('wal_checkpoint(TRUNCATE)', { simple: true })) === 0;
    } finally {
      connection.pragma(`busy_timeout = ${Math.trunc(waitMs)}`);
    }
  } finally {
    await pool.releaseConnection(connection);
  }
}
