import type { Core } from '@strapi/strapi';
import { isSqlite } from './database-dialect';
import { inTransaction } from './transactions';

/**
 * Holds a lock on a name until the current transaction ends, so concurrent writes that choose by
 * the same name (a slug, a new category) take turns and each sees what the one before committed.
 * PostgreSQL: a transaction-level advisory lock (several service instances share it through the
 * database). SQLite runs one write transaction at a time, so the turn is already taken.
 */
export async function lockUntilCommit(strapi: Core.Strapi, name: string): Promise<void> {
  if (isSqlite(strapi)) return;
  await inTransaction(strapi, async ({ trx }) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`artikel:${name}`]);
  });
}

/**
 * Takes the lock on a name until the current transaction ends if no one holds it, without waiting:
 * false while another transaction (on any instance) holds it. SQLite: always true, the one write
 * transaction at a time is the turn.
 */
export async function tryLockUntilCommit(strapi: Core.Strapi, name: string): Promise<boolean> {
  if (isSqlite(strapi)) return true;
  return inTransaction(strapi, async ({ trx }) => {
    const result = (await trx.raw('SELECT pg_try_advisory_xact_lock(hashtextextended(?, 0)) AS locked', [`artikel:${name}`])) as {
      rows: Array<{ locked: boolean }>;
    };
    return result.rows[0]?.locked === true;
  });
}
