/** What limitRows needs of a query builder (any of knex's). */
interface Limitable {
  limit(limit: number, options: { skipBinding: boolean }): unknown;
  offset(offset: number, options: { skipBinding: boolean }): unknown;
}

const WRITTEN_IN = { skipBinding: true };

/**
 * LIMIT and OFFSET written into the SQL as numbers instead of bound parameters. SQLite's planner
 * may use a LIMIT's value, so SQLite prepares a statement again each time its LIMIT is bound, and
 * knex binds every value on every query: the statements the connection keeps prepared
 * (config/database.ts) were parsed and planned anew on every read. The five latest articles with
 * their joins took 76 µs instead of 37. Each limit and offset is a whole number the repository
 * computed (knex parses it as one).
 */
export function limitRows<Query extends Limitable>(query: Query, limit: number, offset?: number): Query {
  query.limit(limit, WRITTEN_IN);
  if (offset !== undefined) query.offset(offset, WRITTEN_IN);
  return query;
}

/**
 * The first row a query selects (after `offset` rows), or undefined: knex's first(), whose own
 * LIMIT 1 is bound, with that limit written in (see limitRows).
 */
export async function firstRow(query: { first(): Limitable & PromiseLike<unknown> }, offset?: number): Promise<unknown> {
  return limitRows(query.first(), 1, offset);
}

/**
 * LIMIT and OFFSET for SQL written by hand, as numbers, for the reason limitRows gives. Each must be
 * a whole number the repository computed; anything else is a defect, not input.
 */
export function limitSql(limit: number, offset = 0): string {
  if (!Number.isSafeInteger(limit) || !Number.isSafeInteger(offset) || limit < 0 || offset < 0)
    throw new Error(`not a row limit: LIMIT ${limit} OFFSET ${offset}`);
  return `LIMIT ${limit} OFFSET ${offset}`;
}

/**
 * Rows written by one multi-row insert, and ids in one IN list of the same writes: knex writes a
 * multi-row insert on SQLite as one compound SELECT, which SQLite caps at 500 terms.
 */
export const INSERT_BATCH_ROWS = 500;
