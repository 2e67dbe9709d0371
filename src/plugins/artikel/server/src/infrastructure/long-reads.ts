import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Core } from '@strapi/strapi';
import createError from 'http-errors';
import type { LongReadAnswer, LongReadReady, LongReadRequest, LongReadSettings } from './long-reads-thread';
import type { SqlValue } from './transactions';

/** The read-only connection's settings the threads copy, so they read the file as the app does. */
const COPIED_PRAGMAS = ['cache_size', 'mmap_size', 'busy_timeout', 'temp_store'] as const;

interface LongRead {
  id: number;
  resolve: (rows: unknown[]) => void;
  reject: (error: Error) => void;
  /** Set once the read is sent, which waits for the thread to have loaded. */
  timer: NodeJS.Timeout | null;
}

interface LongReader {
  worker: Worker;
  /**
   * Settles once the thread has loaded its driver and opened its connection, or has stopped. A
   * thread is never stopped before: a stop that lands while Node loads better-sqlite3's native
   * module aborts the whole process ("FATAL ERROR: Error::New napi_get_last_error_info").
   */
  loaded: Promise<void>;
  /** The read this thread runs, if any: each thread runs one at a time. */
  current: LongRead | null;
}

/** A read past the time budget: its thread is stopped (the statement with it) and the caller answers 503. */
export function overBudget(budgetMs: number): Error {
  return createError(
    503,
    `The search took longer than its budget of ${budgetMs} ms and was stopped: search for fewer or longer words, or narrow it with kategori or tag`,
    { details: { budget_ms: budgetMs } },
  );
}

/**
 * better-sqlite3 runs a statement to its end on the thread that asks, and the event loop answers
 * nobody meanwhile. A read whose cost grows with the archive (a search, a filtered list's count)
 * runs on a thread of a small pool instead, each with its own read-only connection to the file:
 * every other request is answered meanwhile. Each thread runs one read at a time; the callers take
 * turns fairly per client before they come here (see FairTurns), so there is always a free
 * thread. A read that runs past its budget has its thread stopped (SQLite cannot be interrupted
 * from another thread through better-sqlite3) and a new one takes its place.
 */
export class LongReads {
  private readers: LongReader[] = [];

  private settings: Promise<LongReadSettings> | null = null;

  private nextId = 1;

  constructor(
    private readonly filename: string,
    private readonly pragmas: () => Promise<string[]>,
    private readonly budgetMs: number,
  ) {}

  async rows(sql: string, bindings: SqlValue[]): Promise<unknown[]> {
    const settings = await (this.settings ??= this.pragmas().then((pragmas) => ({ filename: this.filename, pragmas })));
    // Taken in the same turn as it is found idle, so that no other read takes it meanwhile. The
    // pool grows to as many threads as reads run at once, which the turns bound (see FairTurns).
    const reader = this.readers.find((other) => other.current === null) ?? this.start(settings);
    return new Promise<unknown[]>((resolve, reject) => {
      const read: LongRead = { id: this.nextId++, resolve, reject, timer: null };
      reader.current = read;
      // The budget is the statement's: it starts once the thread can run it, not while it starts.
      void reader.loaded.then(() => {
        if (reader.current !== read) return;
        read.timer = setTimeout(() => {
          reader.current = null;
          this.retire(reader);
          reject(overBudget(this.budgetMs));
        }, this.budgetMs);
        reader.worker.postMessage({ id: read.id, sql, bindings } satisfies LongReadRequest);
      });
    });
  }

  async close(): Promise<void> {
    const readers = this.readers;
    this.readers = [];
    await Promise.all(readers.map(async (reader) => LongReads.stop(reader)));
  }

  private start(settings: LongReadSettings): LongReader {
    const worker = new Worker(path.join(__dirname, 'long-reads-thread.js'), { workerData: settings });
    // The threads never keep the process alive by themselves.
    worker.unref();
    let settle: () => void = () => undefined;
    const reader: LongReader = { worker, loaded: new Promise<void>((resolve) => (settle = resolve)), current: null };
    worker.on('message', (message: LongReadAnswer | LongReadReady) => {
      if ('ready' in message) {
        settle();
        return;
      }
      const current = reader.current;
      if (current === null || current.id !== message.id) return;
      if (current.timer !== null) clearTimeout(current.timer);
      reader.current = null;
      if ('rows' in message) current.resolve(message.rows);
      else current.reject(Object.assign(new Error(`SQLite: ${message.error.message}`), { code: message.error.code }));
    });
    // A thread that died (out of memory, say) fails the read it ran; the next read starts another.
    const fail = (error: Error) => {
      settle();
      const current = reader.current;
      reader.current = null;
      if (current !== null) {
        if (current.timer !== null) clearTimeout(current.timer);
        current.reject(error);
      }
      this.readers = this.readers.filter((other) => other !== reader);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the long-read thread stopped (exit code ${code})`)));
    this.readers.push(reader);
    return reader;
  }

  private retire(reader: LongReader): void {
    this.readers = this.readers.filter((other) => other !== reader);
    void LongReads.stop(reader);
  }

  /** Stops a thread once it has loaded (see LongReader.loaded); the read it ran, if any, fails. */
  private static async stop(reader: LongReader): Promise<void> {
    await reader.loaded;
    await reader.worker.terminate();
  }
}

const longReads = new WeakMap<Core.Strapi, LongReads>();

/** The long reads of a Strapi on SQLite, set up on first use with its read-only connection's settings. */
export function longReadsOf(strapi: Core.Strapi, readPragma: (name: string) => Promise<unknown>, limits: { budgetMs: number }): LongReads {
  let reads = longReads.get(strapi);
  if (reads === undefined) {
    const { filename } = (strapi.db.connection.client.config as { connection: { filename: string } }).connection;
    reads = new LongReads(
      filename,
      async () => Promise.all(COPIED_PRAGMAS.map(async (name) => `${name} = ${String(await readPragma(name))}`)),
      limits.budgetMs,
    );
    longReads.set(strapi, reads);
  }
  return reads;
}

/** Stops the threads, when the app stops. */
export async function closeLongReads(strapi: Core.Strapi): Promise<void> {
  const reads = longReads.get(strapi);
  longReads.delete(strapi);
  await reads?.close();
}
