import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import supertest from 'supertest';
import { withEnv } from './env';
import { createCategory } from './fixtures';
import { checkedAgainstOpenApi } from './openapi-check';
import {
  copySqliteTemplate,
  currentStore,
  dropPostgresDatabase,
  ensurePostgresDatabase,
  postgresDatabaseFor,
  postgresEnv,
  type Store,
} from './store';
import { createApiToken } from './tokens';
import { hostRequire, keepingWorkerListeners, workerListeners } from './host-modules';
import { testDistDir } from './test-dist';

// Loaded by Node, once per worker (see host-modules.ts).
const { createStrapi } = hostRequire('@strapi/strapi') as typeof import('@strapi/strapi');

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
  /** The plain key of the API token `startStrapi({ token })` created; reading it without one throws. */
  readonly token: string;
  /** `{ Authorization: 'Bearer <token>' }`, for supertest's `.set(app.auth())`. */
  auth: () => { Authorization: string };
  /** The document id of the category `startStrapi({ category })` created; reading it without one throws. */
  readonly categoryId: string;
}

/** The category `category: true` creates. */
export const DEFAULT_CATEGORY = { name: 'Studio', slug: 'studio' } as const;

export interface StartOptions {
  /** Start on this database file (one a stopped app kept), as a restarted service would. */
  databaseFile?: string;
  /**
   * Environment variables the configuration reads as the app loads (undefined: unset); the previous
   * values are back once the app has started, so other test files never see them.
   */
  env?: Record<string, string | undefined>;
  /** Create an API token of this type once the app runs (true: full-access): `app.token`, `app.auth()`. */
  token?: 'full-access' | 'read-only' | true;
  /** Create this category once the app runs (true: Studio, slug studio): `app.categoryId`. */
  category?: { name: string; slug: string } | true;
}

/**
 * A real Strapi on a database of its own, served through its real HTTP stack: a SQLite file in a
 * temporary folder, or (DATABASE_CLIENT=postgres) a fresh database on the test cluster.
 */
export async function startStrapi(options: StartOptions = {}): Promise<TestApp> {
  const app = options.env === undefined ? await startApp(options) : await withEnv(options.env, () => startApp(options));
  try {
    const token =
      options.token === undefined ? undefined : await createApiToken(app.strapi, options.token === true ? 'full-access' : options.token);
    const category = options.category === true ? DEFAULT_CATEGORY : options.category;
    const categoryId = category === undefined ? undefined : await createCategory(app.strapi, category.name, category.slug);
    const tokenKey = (): string => {
      if (token === undefined) throw new Error('this app has no API token: start it with startStrapi({ token: ... })');
      return token;
    };
    return {
      ...app,
      get token() {
        return tokenKey();
      },
      auth: () => ({ Authorization: `Bearer ${tokenKey()}` }),
      get categoryId() {
        if (categoryId === undefined) throw new Error('this app has no category: start it with startStrapi({ category: ... })');
        return categoryId;
      },
    };
  } catch (error) {
    await app.stop();
    throw error;
  }
}

type BareApp = Omit<TestApp, 'token' | 'auth' | 'categoryId'>;

async function startApp(options: StartOptions): Promise<BareApp> {
  const store = currentStore();
  const databaseFile = options.databaseFile ?? path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-test-')), 'data.db');
  const folder = path.dirname(databaseFile);
  let databaseName: string | null = null;
  if (store === 'postgres') {
    databaseName = postgresDatabaseFor(databaseFile);
    await ensurePostgresDatabase(databaseName);
    Object.assign(process.env, postgresEnv(databaseName));
  } else {
    if (options.databaseFile === undefined) copySqliteTemplate(databaseFile);
    process.env.DATABASE_FILENAME = databaseFile;
  }
  let strapi: Core.Strapi;
  const listenersBeforeStrapi = workerListeners();
  try {
    strapi = await createStrapi({ appDir: APP_DIR, distDir: testDistDir() }).load();
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
      await keepingWorkerListeners(listenersBeforeStrapi, () => strapi.destroy());
      if (keepDatabase) return;
      if (databaseName !== null) await dropPostgresDatabase(databaseName);
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
