import { createRequire } from 'node:module';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { TABLES } from './plugins/artikel/server/src/constants';

/** What koa2-ratelimit (the admin's login limit) asks of its store. */
interface StoreOptions {
  interval: number;
}

type StoreBase = new () => object;

/** koa2-ratelimit's Store class, from the copy the admin loads (its rate limit checks `instanceof`). */
function storeBase(): StoreBase {
  const fromAdmin = createRequire(path.join(path.dirname(require.resolve('@strapi/admin/package.json')), 'index.js'));
  return (fromAdmin('koa2-ratelimit') as { Stores: { Store: StoreBase } }).Stores.Store;
}

const KEY_PREFIX = 'admin-login';

/**
 * The count of Strapi's admin login limit (5 tries in 5 minutes per e-mail, path and address) kept
 * where every instance sees it: on PostgreSQL in the plugin's rate-limit table, which the API's
 * write limit already shares between instances; on SQLite (one process) in memory. With Strapi's
 * own memory store, N instances gave a password guesser N times the tries.
 */
export function sharedLoginLimitStore(): object {
  const Base = storeBase();
  const limiters = new Map<number, RateLimiterAbstract>();

  const limiterFor = (intervalMs: number): RateLimiterAbstract => {
    let limiter = limiters.get(intervalMs);
    if (limiter !== undefined) return limiter;
    const strapi = (globalThis as { strapi?: Core.Strapi }).strapi;
    const duration = Math.max(1, Math.ceil(intervalMs / 1000));
    // Points are never consumed here (penalty and reward only count); the count is compared by koa2-ratelimit.
    const options = { points: Number.MAX_SAFE_INTEGER, duration, keyPrefix: KEY_PREFIX };
    limiter =
      strapi === undefined || strapi.db.dialect.client === 'sqlite'
        ? new RateLimiterMemory(options)
        : new RateLimiterPostgres({
            ...options,
            storeClient: strapi.db.connection,
            storeType: 'knex',
            tableName: TABLES.rateLimits,
            tableCreated: true,
          });
    limiters.set(intervalMs, limiter);
    return limiter;
  };

  class SharedLoginLimitStore extends Base {
    async incr(key: string, options: StoreOptions, weight: number): Promise<{ counter: number; dateEnd: number }> {
      const counted = await limiterFor(options.interval).penalty(key, weight);
      return { counter: counted.consumedPoints, dateEnd: Date.now() + counted.msBeforeNext };
    }

    async decrement(key: string, options: StoreOptions, weight: number): Promise<void> {
      await limiterFor(options.interval).reward(key, weight);
    }

    saveAbuse(): void {}
  }
  return new SharedLoginLimitStore();
}
