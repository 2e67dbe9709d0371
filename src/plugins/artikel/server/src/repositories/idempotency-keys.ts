import type { Core } from '@strapi/strapi';
import { IDEMPOTENCY_KEY_LENGTH, TABLES } from '../constants';
import { database } from '../infrastructure/transactions';
import { firstRow } from '../infrastructure/row-limits';

/** Which request a key belongs to: keys are per API token, so two clients never see each other's. */
export interface IdempotencyKey {
  scope: string;
  key: string;
}

/** The answer given to the first request with a key, as replayed to its retries. */
export interface StoredAnswer {
  fingerprint: string;
  status: number;
  location: string | null;
  body: unknown;
}

interface StoredRow {
  fingerprint: string;
  status: number | string;
  location: string | null;
  body: string;
}

function parseRow(row: StoredRow): StoredAnswer {
  return { fingerprint: row.fingerprint, status: Number(row.status), location: row.location, body: JSON.parse(row.body) as unknown };
}

/** The table of stored answers, the same on both stores (times are epoch milliseconds). */
export async function ensureIdempotencyTable(strapi: Core.Strapi): Promise<void> {
  const knex = strapi.db.connection;
  if (await knex.schema.hasTable(TABLES.idempotencyKeys)) return;
  await knex.schema.createTable(TABLES.idempotencyKeys, (table) => {
    table.string('scope', 64).notNullable();
    table.string('idempotency_key', IDEMPOTENCY_KEY_LENGTH).notNullable();
    table.string('fingerprint', 64).notNullable();
    table.integer('status').notNullable();
    table.text('location');
    table.text('body').notNullable();
    table.bigInteger('expires_at').notNullable();
    table.primary(['scope', 'idempotency_key']);
    table.index(['expires_at'], `${TABLES.idempotencyKeys}_expires_idx`);
  });
}

export const idempotencyKeys = (strapi: Core.Strapi) => {
  const knex = () => database(strapi);

  return {
    /** The answer stored for a key, unless it has expired. */
    async find(id: IdempotencyKey, now: number): Promise<StoredAnswer | null> {
      const row = (await firstRow(
        knex()(TABLES.idempotencyKeys)
          .select('fingerprint', 'status', 'location', 'body')
          .where({ scope: id.scope, idempotency_key: id.key })
          .where('expires_at', '>', now),
      )) as StoredRow | undefined;
      return row === undefined ? null : parseRow(row);
    },

    /**
     * Stores the answer to a key, in the transaction of the write it answers: one upsert, which
     * replaces the key's expired record, if any (a live one was replayed instead, under the key's
     * lock: see services/idempotency.ts).
     */
    async store(id: IdempotencyKey, answer: StoredAnswer, expiresAt: number): Promise<void> {
      await knex()(TABLES.idempotencyKeys)
        .insert({
          scope: id.scope,
          idempotency_key: id.key,
          fingerprint: answer.fingerprint,
          status: answer.status,
          location: answer.location,
          body: JSON.stringify(answer.body),
          expires_at: expiresAt,
        })
        .onConflict(['scope', 'idempotency_key'])
        .merge();
    },

    /** Removes every expired record; returns how many. */
    async purgeExpired(now: number): Promise<number> {
      return Number(await knex()(TABLES.idempotencyKeys).where('expires_at', '<=', now).delete());
    },
  };
};
