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
