import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { knex as createKnex } from 'knex';
import { isSqlite } from './database-dialect';
import { keepSqlOutOfErrors } from './database-errors';
import { closeLongReads, longReadsOf, overBudget } from './long-reads';
import { inSearchTurn, searchLimits } from './search-turns';

export type Knex = Core.Strapi['db']['connection'];
/** A piece of raw SQL, as knex.raw() gives it. */
export type RawSql = ReturnType<Knex['raw']>;
/** A knex bound to one transaction: callable for a table, with raw(). */
export type Transaction = Parameters<Parameters<Knex['transaction']>[0]>[0];

interface TransactionScope {
  trx: Transaction;
  onCommit: (callback: () => void) => void;
}

/**
 * Runs work in the caller's transaction when there is one (the Content Manager runs publish,
 * unpublish and the bulk actions inside one), else in a new one. On SQLite the pool has a single
 * connection, which the caller's transaction holds: a query on any other connection would wait for
 * it forever.
 */
export function inTransaction<T>(strapi: Core.Strapi, work: (scope: TransactionScope) => Promise<T>): Promise<T> {
  return strapi.db.transaction((scope: TransactionScope) => current.run(scope.trx, () => work(scope))) as Promise<T>;
}

// The transaction the work of inTransaction runs in, for the plugin's own queries made within it.
const current = new AsyncLocalStorage<Transaction>();

/**
 * The connection every query of the plugin runs on: the transaction it is part of, if any (so a
 * read inside a write, on SQLite's one connection, never waits for a second one), else the pool.
 * A callback that outlives its transaction (a timer set inside it) gets the pool.
 */
export function database(strapi: Core.Strapi): Knex {
  return openTransaction() ?? strapi.db.connection;
}

/** The transaction of inTransaction this code runs in, unless it has ended (a timer set inside it). */
function openTransaction(): Transaction | undefined {
  const trx = current.getStore();
  return trx !== undefined && !trx.isCompleted() ? trx : undefined;
}

/** Whether this code runs inside a transaction: Strapi's own (the Document Service's) or inTransaction's. */
export function inAnyTransaction(strapi: Core.Strapi): boolean {
  return strapi.db.inTransaction() || openTransaction() !== undefined;
}

/** A value a fixed read binds: one both drivers take as it is. */
export type SqlValue = string | number | null;

/** What readRows uses of a better-sqlite3 connection. */
interface SqliteConnection {
  readonly open: boolean;
  prepare(sql: string): { all(bindings: SqlValue[]): unknown[] };
}

type AfterCreate = (connection: unknown, done: (error?: Error, connection?: unknown) => void) => void;
/** knex's connection settings (a SQLite file's, PostgreSQL's host and credentials). */
type ConnectionSettings = Exclude<Parameters<typeof createKnex>[0], string>['connection'];

/** SQLite's read-only connection: through knex, and the better-sqlite3 connection under it once the pool has opened it. */
interface Reader {
  readonly knex: Knex;
  readonly connection: SqliteConnection | null;
}

// The read-only connection of each Strapi instance (one in the app; several in the tests' restarts).
const readers = new WeakMap<Core.Strapi, Reader>();
// Strapi instances whose read-only connection was closed: a read still under way when the app
// stops (a background fill's) must not open another, whose pool would outlive the app; it reads
// on the app's own connection, as on PostgreSQL.
const closed = new WeakSet<Core.Strapi>();

/**
 * Another knex on the app's database, set up as Strapi's own (its dialect settings, type parsers,
 * schema and each new connection's set-up), with a pool of its own of `min` to `max` connections,
 * on the connection settings `connectionOf` makes of the app's. `connected` then runs on each new
 * connection and may refuse it (an error).
 */
function knexBesideTheApp(
  strapi: Core.Strapi,
  options: {
    connectionOf: (appConnection: ConnectionSettings) => ConnectionSettings;
    min: number;
    max: number;
    connected: (created: unknown, done: (error?: Error) => void) => void;
  },
): Knex {
  const { connection, pool, ...config } = strapi.db.connection.client.config as {
    connection: ConnectionSettings;
    pool?: { afterCreate?: AfterCreate };
  } & Record<string, unknown>;
  const setUp: AfterCreate = pool?.afterCreate ?? ((created, done) => done(undefined, created));
  const afterCreate: AfterCreate = (created, done) =>
    setUp(created, (error, ready) => {
      if (error) return done(error, ready);
      options.connected(created, (refused) => done(refused, ready));
    });
  const knex = createKnex({
    ...config,
    connection: options.connectionOf(connection),
    pool: { ...pool, min: options.min, max: options.max, afterCreate },
  }) as unknown as Knex;
  keepSqlOutOfErrors(knex);
  return knex;
}

/**
 * A second connection to the SQLite file, read-only, set up as the first (Strapi's pragmas and the
 * app's: WAL, page cache, kept prepared statements). Its pool holds exactly one connection, which
 * is kept for readRows as the pool opens it.
 */
function openReader(strapi: Core.Strapi): Reader {
  const opened: { connection: SqliteConnection | null } = { connection: null };
  const knex = knexBesideTheApp(strapi, {
    connectionOf: (appConnection) => ({ ...(appConnection as { filename: string }), options: { readonly: true } }),
    min: 1,
    max: 1,
    connected: (created, done) => {
      opened.connection = created as SqliteConnection;
      done();
    },
  });
  return {
    knex,
    get connection() {
      return opened.connection;
    },
  };
}

/** SQLite's read-only connection, opened on first use. */
function readerOf(strapi: Core.Strapi): Reader {
  let reader = readers.get(strapi);
  if (reader === undefined) {
    reader = openReader(strapi);
    readers.set(strapi, reader);
  }
  return reader;
}

/** What the long-read pools' set-up uses of a pg connection. */
interface PostgresConnection {
  query(sql: string, callback: (error: Error | null) => void): void;
}

/**
 * How the planner may read, for a long read on PostgreSQL: as it sees fit, or never by a
 * sequential scan where an index can serve (for a read whose table holds large values the planner
 * does not count the cost of reading, as the search index's word arrays; see longReadRows).
 */
export type PlannerScans = 'any' | 'no-sequential';

// The long-read pools of each Strapi instance on PostgreSQL, one per PlannerScans.
const postgresReaders = new WeakMap<Core.Strapi, Map<PlannerScans, Knex>>();

/**
 * The settings a long read on PostgreSQL runs with (`name = value`): the search budget as its
 * statement_timeout and, for `no-sequential`, sequential scans and JIT compilation off (with
 * sequential scans off, a plan that still needs one is costed so high that JIT would compile it).
 */
const longReadSettings = (scans: PlannerScans, budgetMs: number): string[] => [
  `statement_timeout = ${Math.floor(budgetMs)}`,
  ...(scans === 'no-sequential' ? ['enable_seqscan = off', 'jit = off'] : []),
];

/**
 * A PostgreSQL pool for long reads (see longReadRows), opened on first use: as many connections as
 * there are readers (see searchLimits), each set up as the app's (Strapi's type parsers and schema)
 * and then given the long reads' settings (see longReadSettings), so a read needs no transaction of
 * its own to set them: one round trip instead of four (BEGIN, SET LOCAL, the read, COMMIT). Idle
 * connections close after a while. A site with several instances opens up to twice the readers
 * more connections per instance.
 */
function postgresReaderOf(strapi: Core.Strapi, scans: PlannerScans): Knex {
  let pools = postgresReaders.get(strapi);
  if (pools === undefined) {
    pools = new Map();
    postgresReaders.set(strapi, pools);
  }
  const open = pools.get(scans);
  if (open !== undefined) return open;
  const { readers: connections, budgetMs } = searchLimits(strapi);
  const settings = longReadSettings(scans, budgetMs).map((setting) => `SET ${setting}`);
  const reader = knexBesideTheApp(strapi, {
    connectionOf: (appConnection) => appConnection,
    min: 0,
    max: connections,
    connected: (created, done) => (created as PostgresConnection).query(settings.join('; '), (failed) => done(failed ?? undefined)),
  });
  pools.set(scans, reader);
  return reader;
}

/**
 * The connection a read that is part of no write runs on. On SQLite the pool is a single
 * connection, which a write's transaction holds until it commits (250 ms and more while the
 * process is busy serving reads); in WAL mode a second connection reads the last commit meanwhile,
 * so public reads never queue behind a write. Within a transaction, the transaction (it must see
 * its own writes); on PostgreSQL, the pool.
 */
export function readDatabase(strapi: Core.Strapi): Knex {
  if (!isSqlite(strapi) || closed.has(strapi) || inAnyTransaction(strapi)) return database(strapi);
  return readerOf(strapi).knex;
}

/**
 * The rows of a read whose SQL is written once (`?` for each binding), on the connection
 * readDatabase picks. On SQLite's read-only connection the statement runs on better-sqlite3
 * directly, prepared once and kept (config/database.ts): knex's way to it (building the SQL, then
 * its pool and runner) took a third of the time of the five latest articles, uncached.
 * better-sqlite3 runs a statement to its end before returning, so it never meets one of knex's
 * on the connection. Elsewhere (PostgreSQL, inside a write) knex runs it.
 */
export async function readRows(strapi: Core.Strapi, sql: string, bindings: Array<SqlValue | Date> = []): Promise<unknown[]> {
  const db = readDatabase(strapi);
  const reader = readers.get(strapi);
  if (reader?.connection?.open && db === reader.knex) return reader.connection.prepare(sql).all(bindings.map(sqliteValue));
  return rowsOf(await db.raw(sql, bindings));
}

/** A binding of a fixed read: a value, or (PostgreSQL only) an array, which pg sends as one. */
export type FixedBinding = SqlValue | Date | number[] | string[];

/**
 * readRows for SQL that is one of the plugin's constants (no value ever written into it): on
 * PostgreSQL a named prepared statement, so each connection plans it once instead of on every
 * read. Planning the summaries' join of six tables took 2 ms, running it for a page 0.05 ms (at
 * 10,000 articles). Its name is a digest of its text, so that two texts never share one. Never
 * for SQL whose text changes with the request (a page's limitSql): each text would stay prepared
 * on every connection.
 */
export async function readFixedRows(strapi: Core.Strapi, sql: string, bindings: FixedBinding[] = []): Promise<unknown[]> {
  if (isSqlite(strapi)) return readRows(strapi, sql, bindings as Array<SqlValue | Date>);
  return rowsOf(
    await readDatabase(strapi)
      .raw(sql, bindings)
      .options({ name: statementName(sql) }),
  );
}

const statementNames = new Map<string, string>();

function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (name === undefined) {
    name = `artikel_${createHash('sha256').update(sql).digest('hex').slice(0, 32)}`;
    statementNames.set(sql, name);
  }
  return name;
}

/** A query knex can write out as SQL text and its bindings. */
interface CompilableQuery extends PromiseLike<unknown> {
  toSQL(): { toNative(): { sql: string; bindings: readonly unknown[] } };
}

/** A binding as better-sqlite3 takes it, as knex would pass it (dates as milliseconds, booleans as 0 or 1). */
function sqliteValue(value: unknown): SqlValue {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value as SqlValue;
}

/**
 * The rows of a read whose cost grows with the archive (a search, a filtered list and its count),
 * built on the connection readDatabase picks. Outside a write, it waits for its client's turn (see
 * search-turns.ts: a client's reads wait behind its own, never another's; too many waiting is a
 * 429) and runs within the search budget (a 503 past it). On SQLite's read-only connection it runs
 * on a long-read thread (see long-reads.ts), so the event loop answers everyone else meanwhile; on
 * PostgreSQL, whose driver never holds the event loop, with the budget as its statement_timeout
 * and the planner's `scans` (see PlannerScans; SQLite's planner needs no such setting). Inside a
 * write it runs at once on the write's connection, as it is: a write never waits behind searches.
 */
export async function longReadRows(strapi: Core.Strapi, query: CompilableQuery, scans: PlannerScans = 'any'): Promise<unknown[]> {
  if (inAnyTransaction(strapi)) return rowsOf(await query);
  return inSearchTurn(strapi, () => readWithinBudget(strapi, query, scans));
}

const rowsOf = (result: unknown): unknown[] => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows);

// PostgreSQL's code for a statement cancelled by statement_timeout.
const QUERY_CANCELED = '57014';

async function readWithinBudget(strapi: Core.Strapi, query: CompilableQuery, scans: PlannerScans): Promise<unknown[]> {
  const { budgetMs } = searchLimits(strapi);
  const reader = readers.get(strapi);
  if (reader !== undefined && readDatabase(strapi) === reader.knex) {
    const { sql, bindings } = query.toSQL().toNative();
    const pragma = async (name: string): Promise<unknown> =>
      Object.values(((await readRows(strapi, `PRAGMA ${name}`)) as Array<Record<string, unknown>>)[0] ?? {})[0];
    return longReadsOf(strapi, pragma, { budgetMs }).rows(sql, bindings.map(sqliteValue));
  }
  if (isSqlite(strapi)) return rowsOf(await query);
  const { sql, bindings } = (query as unknown as { toSQL(): { sql: string; bindings: readonly unknown[] } }).toSQL();
  try {
    // On a long-read pool (see postgresReaderOf): one round trip. Once the app stops, on its own
    // pool in a transaction, so the settings hold for this statement only.
    if (!closed.has(strapi)) return rowsOf(await postgresReaderOf(strapi, scans).raw(sql, bindings as never));
    return await strapi.db.connection.transaction(async (trx) => {
      for (const setting of longReadSettings(scans, budgetMs)) await trx.raw(`SET LOCAL ${setting}`);
      return rowsOf(await trx.raw(sql, bindings as never));
    });
  } catch (error) {
    if ((error as { code?: unknown }).code === QUERY_CANCELED) throw overBudget(budgetMs);
    throw error;
  }
}

/** Closes the read-only connection and the long-read thread (on SQLite), or the long-read pools (on PostgreSQL), when the app stops. */
export async function closeReadDatabase(strapi: Core.Strapi): Promise<void> {
  closed.add(strapi);
  const reader = readers.get(strapi);
  readers.delete(strapi);
  const postgresPools = [...(postgresReaders.get(strapi)?.values() ?? [])];
  postgresReaders.delete(strapi);
  await closeLongReads(strapi);
  await reader?.knex.destroy();
  await Promise.all(postgresPools.map((pool) => pool.destroy()));
}

/**
 * Runs a callback once what was written so far is visible to every other connection: after the
 * outermost transaction commits, or at once outside any transaction. A rollback never runs it.
 */
export async function afterCommit(strapi: Core.Strapi, callback: () => void): Promise<void> {
  if (!strapi.db.inTransaction()) {
    callback();
    return;
  }
  await inTransaction(strapi, async ({ onCommit }) => onCommit(callback));
}
