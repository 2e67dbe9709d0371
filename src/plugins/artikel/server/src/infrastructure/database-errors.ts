interface DriverError {
  code?: unknown;
  constraint?: unknown;
  message?: unknown;
  cause?: unknown;
}

/**
 * Whether a failed write broke a unique constraint on the given column (SQLite and PostgreSQL),
 * looking through the wrappers Strapi and knex may put around the driver's error.
 */
export function isUniqueViolation(error: unknown, column: string): boolean {
  for (
    let current = error as DriverError | undefined, depth = 0;
    current && depth < 5;
    current = current.cause as DriverError | undefined, depth += 1
  ) {
    const message = typeof current.message === 'string' ? current.message : '';
    const sqlite = current.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/i.test(message);
    const postgres = current.code === '23505';
    if ((sqlite || postgres) && (message.includes(column) || String(current.constraint ?? '').includes(column))) return true;
  }
  return false;
}

/** What keepSqlOutOfErrors needs of a knex instance. */
interface QueryErrorSource {
  on(event: 'query-error', listener: (error: unknown, query: { sql?: unknown }) => void): unknown;
}

/**
 * knex puts a failed query's SQL in front of the driver's message ("select … - no such column"),
 * and Strapi logs an unexpected error's message whole: the SQL of a search names what a visitor
 * typed, and one malformed request could write megabytes of it. With compileSqlOnError off
 * (config/database.ts) the prefix is the statement's text exactly, and is taken off again here,
 * before anything catches the error: logs get the driver's message and code only.
 */
export function keepSqlOutOfErrors(knex: QueryErrorSource): void {
  knex.on('query-error', (error, query) => {
    // Not `instanceof Error`: a driver's error class may come from another realm (a worker, a test's VM).
    const failed = error as { message?: unknown; stack?: unknown } | null;
    if (failed === null || typeof failed !== 'object' || typeof failed.message !== 'string' || typeof query.sql !== 'string') return;
    const prefix = `${query.sql} - `;
    if (failed.message.startsWith(prefix)) failed.message = failed.message.slice(prefix.length);
    if (typeof failed.stack === 'string' && failed.stack.includes(prefix)) failed.stack = failed.stack.replace(prefix, '');
  });
}
