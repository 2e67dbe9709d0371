import os from 'node:os';
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { rateLimitAddress } from '../utils/client-address';
import { isSqlite } from './database-dialect';
import { FairTurns } from './fair-turns';
import { getConfig } from './get-service';
import { oncePerStrapi } from './once-per-strapi';

/** How many long reads run at once, each client's line, and each read's time (see config: ARTIKEL_SEARCH_*). */
export interface SearchLimits {
  readers: number;
  perClient: number;
  budgetMs: number;
}

/**
 * The readers by default: on SQLite a thread per core, beside the event loop's; on PostgreSQL,
 * where the database server does the work, as many connections as the machine has cores (at least
 * 2). On 2 cores a second SQLite thread served 245-268 relevance searches a second instead of
 * 178-193 at 100,000 articles, and another client's search waited at most 103-120 ms (p99) during
 * bench/hostile.js's flood instead of 189-246 ms, the cached reads within 23 ms either way: a
 * thread less than the cores left a core idle while the event loop waited for the one thread.
 * It costs about 35 MB (the thread and its connection's page cache) once two reads run at once.
 */
const defaultReaders = (strapi: Core.Strapi): number =>
  isSqlite(strapi) ? Math.max(1, os.availableParallelism()) : Math.max(2, os.availableParallelism());

// Settled at the start: read on every long read (the cores' count took 1 % of a search's time).
export const searchLimits = oncePerStrapi((strapi: Core.Strapi): SearchLimits => {
  const readers = getConfig(strapi, 'searchReaders');
  return {
    readers: readers === 0 ? defaultReaders(strapi) : readers,
    perClient: getConfig(strapi, 'searchQueue'),
    budgetMs: getConfig(strapi, 'searchBudgetMs'),
  };
});

interface RequestLike {
  request?: { ip?: string };
  get?: (header: string) => string;
  set?: (header: string, value: string) => void;
}

const BEARER = /^Bearer\s+(\S{8,})/i;

/**
 * Whose line a read waits in: the token it was sent with (so a public site that renders on its
 * server gets its own share with a token of its own), else the client address (an IPv6 client by
 * its /64, as the write limit counts it); a read outside any request (a script) is the service's.
 */
function clientOf(request: RequestLike | undefined): string {
  if (request === undefined) return 'service';
  const bearer = BEARER.exec(request.get?.('Authorization') ?? '');
  // The token's last characters name its line; the token itself is never kept.
  if (bearer !== null) return `token:${bearer[1].slice(-16)}`;
  return `address:${rateLimitAddress(request.request?.ip ?? '')}`;
}

const turns = new WeakMap<Core.Strapi, FairTurns>();

/**
 * Runs a long read in its client's turn (see FairTurns). A client with more reads waiting than its
 * line holds gets a 429 with Retry-After at once: its own reads are what it waits for.
 */
export async function inSearchTurn<T>(strapi: Core.Strapi, read: () => Promise<T>): Promise<T> {
  let fair = turns.get(strapi);
  if (fair === undefined) {
    const limits = searchLimits(strapi);
    fair = new FairTurns(limits.readers, limits.perClient);
    turns.set(strapi, fair);
  }
  const request = strapi.requestContext.get() as RequestLike | undefined;
  const queued = fair.run(clientOf(request), read);
  if (queued !== null) return queued;
  request?.set?.('Retry-After', '1');
  throw new errors.RateLimitError(
    `Too many of your searches are waiting (at most ${searchLimits(strapi).perClient}): wait for their answers, then retry in a second`,
    { retryAfterSeconds: 1 },
  );
}
