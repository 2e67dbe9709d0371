import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createStrapi, type Core } from '@strapi/strapi';
import supertest from 'supertest';
import { checkedAgainstOpenApi } from './openapi-check';
import { currentStore, dropPostgresDatabase, ensurePostgresDatabase, postgresDatabaseFor, postgresEnv, type Store } from './store';

const APP_DIR = path.resolve(__dirname, '..', '..');

export interface TestApp {
  strapi: Core.Strapi;
  api: () => supertest.Agent;
  /** Which store the app runs on: `npm test` uses SQLite, `npm run test:postgres` PostgreSQL. */
  store: Store;
  /**
   * The app's SQLite file. On PostgreSQL no such file exists: the path only names the app's
   * database (see `databaseName`), so a kept database can still be restarted with it.
   */
  databaseFile: string;
  /** On PostgreSQL, the app's own database in the test cluster; null on SQLite. */
  databaseName: string | null;
  /** The address of the real listening server, for clients that open their own connections. */
  baseUrl: () => Promise<string>;
  /** Stops the app and removes its database, unless it is kept for a restart. */
  stop: (options?: { keepDatabase?: boolean }) => Promise<void>;
}

export interface StartOptions {
  /** Start on this database file (one a stopped app kept), as a restarted service would. */
  databaseFile?: string;
}

/**
 * A real Strapi on a database of its own, served through its real HTTP stack: a SQLite file in a
 * temporary folder, or (DATABASE_CLIENT=postgres) a fresh database on the test cluster.
 */
export async function startStrapi(options: StartOptions = {}): Promise<TestApp> {
  const store = currentStore();
  const databaseFile = options.databaseFile ?? path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-test-')), 'data.db');
  const folder = path.dirname(databaseFile);
  let databaseName: string | null = null;
  if (store === 'postgres') {
    databaseName = postgresDatabaseFor(databaseFile);
    await ensurePostgresDatabase(databaseName);
    Object.assign(process.env, postgresEnv(databaseName));
  } else {
    process.env.DATABASE_FILENAME = databaseFile;
  }
  let strapi: Core.Strapi;
  try {
    strapi = await createStrapi({ appDir: APP_DIR, distDir: path.join(APP_DIR, 'dist') }).load();
    await strapi.server.mount();
  } catch (error) {
    if (databaseName !== null && options.databaseFile === undefined) await dropPostgresDatabase(databaseName).catch(() => undefined);
    throw error;
  }
  // One listening address for the whole app: answers that name it (paging links, feed links) and
  // so their ETags stay the same from one request to the next, as on a real server.
  const server = strapi.server.httpServer;
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const agent = supertest.agent(server).use(checkedAgainstOpenApi);
  return {
    strapi,
    api: () => agent,
    store,
    databaseFile,
    databaseName,
    baseUrl: async () => {
      const server = strapi.server.httpServer;
      if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      if (address === null || typeof address === 'string') throw new Error('the test server has no TCP address');
      return `http://127.0.0.1:${address.port}`;
    },
    stop: async ({ keepDatabase = false } = {}) => {
      await strapi.destroy();
      if (keepDatabase) return;
      if (databaseName !== null) await dropPostgresDatabase(databaseName);
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
