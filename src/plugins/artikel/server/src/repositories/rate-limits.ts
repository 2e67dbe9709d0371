import type { Core } from '@strapi/strapi';
import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { TABLES } from '../constants';
import { isSqlite } from '../infrastructure/database-dialect';

/**
 * The store of the POST rate limit. SQLite: the process's memory (one process serves a SQLite
 * file). PostgreSQL: a table, so every service instance on the database counts against one limit.
 */
export function postRateLimiter(strapi: Core.Strapi, points: number, durationSeconds: number): RateLimiterAbstract {
  // One limiter per app, shared by the middlewares that count (its memory store on SQLite is its counts).
  let limiter = limiters.get(strapi);
  if (limiter === undefined) {
    limiter = newLimiter(strapi, points, durationSeconds);
    limiters.set(strapi, limiter);
  }
  return limiter;
}

const limiters = new WeakMap<Core.Strapi, RateLimiterAbstract>();

function newLimiter(strapi: Core.Strapi, points: number, durationSeconds: number): RateLimiterAbstract {
  if (isSqlite(strapi)) return new RateLimiterMemory({ points, duration: durationSeconds });
  return new RateLimiterPostgres({
    storeClient: strapi.db.connection,
    storeType: 'knex',
    tableName: TABLES.rateLimits,
    // Created by ensureRateLimitTable at boot, before any request.
    tableCreated: true,
    points,
    duration: durationSeconds,
  });
}

/** The table rate-limiter-flexible's PostgreSQL store reads and writes, in the form it expects. */
export async function ensureRateLimitTable(strapi: Core.Strapi): Promise<void> {
  if (isSqlite(strapi)) return;
  await strapi.db.connection.raw(
    `CREATE TABLE IF NOT EXISTS ${TABLES.rateLimits} (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`,
  );
}
