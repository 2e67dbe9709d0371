/**
 * Lets the event loop take waiting I/O (requests) before going on. better-sqlite3 runs each query
 * synchronously and knex only wraps it in promises, so a loop of queries never returns to the event
 * loop by itself: a long background job on SQLite must yield between its steps or nothing is
 * answered until it ends.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
