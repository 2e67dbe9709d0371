import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { LongReadAnswer, LongReadRequest, LongReadSettings } from './long-reads-thread';
import type { SqlValue } from './transactions';

/** Reads that may wait in line for the thread; more are refused with a 429 until it catches up. */
const MAX_WAITING = 64;
/** The read-only connection's settings the thread copies, so it reads the file as the app does. */
const COPIED_PRAGMAS = ['cache_size', 'mmap_size', 'busy_timeout', 'temp_store'] as const;

interface Waiting {
  resolve: (rows: unknown[]) => void;
  reject: (error: Error) => void;
}

interface LongReader {
  worker: Worker;
  waiting: Map<number, Waiting>;
}

/**
 * better-sqlite3 runs a statement to its end on the thread that asks, and the event loop answers
 * nobody meanwhile. A read whose cost grows with the archive (a search, a filtered list's count)
 * runs on a thread of its own instead, with its own read-only connection to the file: it may
 * take as long as the archive makes it, and every other request is answered meanwhile. Reads
 * queue on the one thread (two cores: one for the event loop, one for long reads); past
 * MAX_WAITING they are refused with a 429 rather than held in memory without end.
 */
export class LongReads {
  private reader: Promise<LongReader> | null = null;

  private nextId = 1;

  constructor(
    private readonly filename: string,
    private readonly pragmas: () => Promise<string[]>,
  ) {}

  async rows(sql: string, bindings: SqlValue[]): Promise<unknown[]> {
    const reader = await (this.reader ??= this.start());
    if (reader.waiting.size >= MAX_WAITING) {
      throw new errors.RateLimitError('Too many searches and filtered lists are being read at once; retry in a second.', {
        retryAfterSeconds: 1,
      });
    }
    const id = this.nextId++;
    return new Promise<unknown[]>((resolve, reject) => {
      reader.waiting.set(id, { resolve, reject });
      reader.worker.postMessage({ id, sql, bindings } satisfies LongReadRequest);
    });
  }

  async close(): Promise<void> {
    const reader = this.reader;
    this.reader = null;
    if (reader !== null) await (await reader).worker.terminate();
  }

  private async start(): Promise<LongReader> {
    const settings: LongReadSettings = { filename: this.filename, pragmas: await this.pragmas() };
    const worker = new Worker(path.join(__dirname, 'long-reads-thread.js'), { workerData: settings });
    // The thread never keeps the process alive by itself.
    worker.unref();
    const reader: LongReader = { worker, waiting: new Map() };
    worker.on('message', (answer: LongReadAnswer) => {
      const waiting = reader.waiting.get(answer.id);
      reader.waiting.delete(answer.id);
      if (waiting === undefined) return;
      if ('rows' in answer) waiting.resolve(answer.rows);
      else waiting.reject(Object.assign(new Error(`SQLite: ${answer.error.message}`), { code: answer.error.code }));
    });
    // A thread that died (out of memory, say) fails what waited on it; the next read starts another.
    worker.on('error', (error) => this.fail(reader, error));
    worker.on('exit', (code) => this.fail(reader, new Error(`the long-read thread stopped (exit code ${code})`)));
    return reader;
  }

  private fail(reader: LongReader, error: Error): void {
    for (const waiting of reader.waiting.values()) waiting.reject(error);
    reader.waiting.clear();
    void this.reader?.then((current) => {
      if (current === reader) this.reader = null;
    });
  }
}

const longReads = new WeakMap<Core.Strapi, LongReads>();

/** The long reads of a Strapi on SQLite, set up on first use with its read-only connection's settings. */
export function longReadsOf(strapi: Core.Strapi, readPragma: (name: string) => Promise<unknown>): LongReads {
  let reads = longReads.get(strapi);
  if (reads === undefined) {
    const { filename } = (strapi.db.connection.client.config as { connection: { filename: string } }).connection;
    reads = new LongReads(filename, async () =>
      Promise.all(COPIED_PRAGMAS.map(async (name) => `${name} = ${String(await readPragma(name))}`)),
    );
    longReads.set(strapi, reads);
  }
  return reads;
}

/** Stops the thread, when the app stops. */
export async function closeLongReads(strapi: Core.Strapi): Promise<void> {
  const reads = longReads.get(strapi);
  longReads.delete(strapi);
  await reads?.close();
}
