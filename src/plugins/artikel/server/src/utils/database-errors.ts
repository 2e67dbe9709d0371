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
  for (let current = error as DriverError | undefined, depth = 0; current && depth < 5; current = current.cause as DriverError | undefined, depth += 1) {
    const message = typeof current.message === 'string' ? current.message : '';
    const sqlite = current.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/i.test(message);
    const postgres = current.code === '23505';
    if ((sqlite || postgres) && (message.includes(column) || String(current.constraint ?? '').includes(column))) return true;
  }
  return false;
}
