import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { FOLD_SQL_FUNCTION, foldSqlValue } from '../utils/search-words';

/** What the thread is started with: the file and the read-only connection's settings (see long-reads.ts). */
export interface LongReadSettings {
  filename: string;
  /** PRAGMA statements, e.g. "cache_size = -16384": the app's own connection's values. */
  pragmas: string[];
}

export interface LongReadRequest {
  id: number;
  sql: string;
  bindings: Array<string | number | null>;
}

/** A read's rows, or the driver's own message (never the SQL, which may hold what a visitor typed). */
export type LongReadAnswer = { id: number; rows: unknown[] } | { id: number; error: { message: string; code: string | null } };

/** What the thread says once: its driver is loaded and its connection open, so it may be stopped. */
export interface LongReadReady {
  ready: true;
}

// The app's queries are a few dozen shapes; distinct texts beyond this are prepared again when they come back.
const KEPT_STATEMENTS = 200;

const settings = workerData as LongReadSettings;
const connection = new Database(settings.filename, { readonly: true, fileMustExist: true });
for (const pragma of settings.pragmas) connection.pragma(pragma);
connection.function(FOLD_SQL_FUNCTION, { deterministic: true }, foldSqlValue);

const kept = new Map<string, Database.Statement>();

function statementFor(sql: string): Database.Statement {
  let statement = kept.get(sql);
  if (statement === undefined) {
    statement = connection.prepare(sql);
    if (kept.size >= KEPT_STATEMENTS) kept.delete(kept.keys().next().value as string);
    kept.set(sql, statement);
  }
  return statement;
}

parentPort?.on('message', ({ id, sql, bindings }: LongReadRequest) => {
  let answer: LongReadAnswer;
  try {
    answer = { id, rows: statementFor(sql).all(bindings) };
  } catch (error) {
    const { message, code } = error as { message?: unknown; code?: unknown };
    answer = { id, error: { message: String(message), code: typeof code === 'string' ? code : null } };
  }
  parentPort?.postMessage(answer);
});

parentPort?.postMessage({ ready: true } satisfies LongReadReady);
