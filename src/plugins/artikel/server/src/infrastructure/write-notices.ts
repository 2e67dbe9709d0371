import crypto from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { isSqlite } from './database-dialect';
import { type WrittenScope, writtenScopeFromText, writtenScopeToText } from '../domain/written-scope';
import { inTransaction } from './transactions';

const CHANNEL = 'artikel_writes';
const RECONNECT_DELAYS_MS = [100, 250, 500, 1000, 2000, 5000];

/** What the service does when another instance writes, and while it cannot hear them. */
export interface WriteListener {
  /** Another instance committed a write: what this one remembers of it may be stale. */
  written: (write: WrittenScope) => void;
  /** The channel is lost: nothing remembered can be trusted until it is back. */
  deaf: () => void;
  /** The channel is back: writes missed meanwhile are unknown, so everything remembered is dropped. */
  hearing: () => void;
}

export interface WriteNotices {
  /** Tells the other instances about the current write; on PostgreSQL delivered when it commits. */
  announce: (write: WrittenScope) => Promise<void>;
  listen: (listener: WriteListener) => Promise<void>;
  close: () => Promise<void>;
}

/** The subset of node-postgres's Client used here. */
interface PgClient {
  connect: () => Promise<void>;
  query: (text: string) => Promise<unknown>;
  end: () => Promise<void>;
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): void;
  on(event: 'error' | 'end', listener: (error?: Error) => void): void;
  removeAllListeners: () => void;
}

type PgClientConstructor = new (config: unknown) => PgClient;

/** A notice's payload: the sending instance, a space, and what was written (see written-scope.ts). */
// A NOTIFY payload must be shorter than 8000 bytes.
const MAX_PAYLOAD_BYTES = 8000;

function parseNotice(payload: string): { instance: string; write: WrittenScope } {
  const space = payload.indexOf(' ');
  if (space === -1) return { instance: payload, write: 'everything' };
  return { instance: payload.slice(0, space), write: writtenScopeFromText(payload.slice(space + 1)) };
}

/**
 * Several service instances on one PostgreSQL database keep their caches right through the
 * database itself: each write NOTIFYs a channel inside its transaction (PostgreSQL delivers it
 * only if the write commits), and each instance LISTENs on a connection of its own. SQLite is
 * served by one process, so there is nobody to tell.
 */
export function writeNotices(strapi: Core.Strapi): WriteNotices {
  if (isSqlite(strapi)) {
    return { announce: async () => undefined, listen: async () => undefined, close: async () => undefined };
  }

  const instance = crypto.randomUUID();
  let client: PgClient | null = null;
  let closed = false;

  const connect = async (listener: WriteListener, attempt: number): Promise<void> => {
    if (closed) return;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the driver knex itself loads for PostgreSQL
    const { Client } = require('pg') as { Client: PgClientConstructor };
    const connection = (strapi.db.connection.client as { config: { connection: unknown } }).config.connection;
    const next = new Client(connection);
    let lost = false;
    const reconnect = () => {
      if (lost || closed) return;
      lost = true;
      listener.deaf();
      next.removeAllListeners();
      next.end().catch(() => undefined);
      client = null;
      const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)];
      setTimeout(() => void connect(listener, attempt + 1), delay).unref();
    };
    next.on('error', reconnect);
    next.on('end', reconnect);
    next.on('notification', (message) => {
      if (message.channel !== CHANNEL || message.payload === undefined) return;
      const notice = parseNotice(message.payload);
      if (notice.instance !== instance) listener.written(notice.write);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      strapi.log.warn(`artikel: cannot listen for other instances' writes (${String(error)}); serving without cache until it can`);
      reconnect();
      return;
    }
    client = next;
    listener.hearing();
  };

  return {
    async announce(write) {
      const payload = `${instance} ${writtenScopeToText(write)}`;
      // PostgreSQL refuses a longer payload, failing the write: many long tags, or many articles pushed out at one moment, are told as "everything".
      const sent = Buffer.byteLength(payload) < MAX_PAYLOAD_BYTES ? payload : `${instance} ${writtenScopeToText('everything')}`;
      await inTransaction(strapi, async ({ trx }) => {
        await trx.raw('SELECT pg_notify(?, ?)', [CHANNEL, sent]);
      });
    },
    async listen(listener) {
      // Until the channel is up, this instance cannot know about other writes.
      listener.deaf();
      await connect(listener, 0);
    },
    async close() {
      closed = true;
      const current = client;
      client = null;
      if (current) {
        current.removeAllListeners();
        await current.end().catch(() => undefined);
      }
    },
  };
}
