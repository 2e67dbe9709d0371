import type { Core } from '@strapi/strapi';

/** The subset of node-postgres's Client used here. */
interface PgClient {
  connect: () => Promise<void>;
  query: (text: string, values?: unknown[]) => Promise<unknown>;
  end: () => Promise<void>;
  on(event: 'error', listener: (error: Error) => void): void;
}

// One number for "the schema of this app is being created or changed" (pg advisory locks take a bigint).
const BOOT_LOCK_KEY = 7_406_113_370_981;

let holder: PgClient | null = null;

/**
 * Several instances may start at once on one PostgreSQL database (a deploy, an autoscaler). Strapi
 * creates and changes the schema, roles and permissions at start, with no guard against a second
 * process doing the same at the same moment. From just before that until the end of the start,
 * each process holds a session advisory lock, so they take turns; a process that dies releases it
 * with its connection. SQLite is served by one process and needs none.
 */
export function serializeBootOnPostgres(strapi: Core.Strapi): void {
  if (strapi.config.get('database.connection.client') !== 'postgres') return;
  strapi.hook('strapi::content-types.beforeSync').register(async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the driver knex itself loads for PostgreSQL
    const { Client } = require('pg') as { Client: new (config: unknown) => PgClient };
    const client = new Client((strapi.db.connection.client as { config: { connection: unknown } }).config.connection);
    client.on('error', () => undefined);
    await client.connect();
    await client.query('SELECT pg_advisory_lock($1)', [BOOT_LOCK_KEY]);
    holder = client;
  });
}

/** Ends the turn taken by serializeBootOnPostgres; called at the very end of the start. */
export async function endBootTurn(): Promise<void> {
  const client = holder;
  holder = null;
  if (client) await client.end();
}
