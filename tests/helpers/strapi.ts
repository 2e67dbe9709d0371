import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createStrapi, type Core } from '@strapi/strapi';
import supertest from 'supertest';

const APP_DIR = path.resolve(__dirname, '..', '..');

export interface TestApp {
  strapi: Core.Strapi;
  api: () => supertest.Agent;
  databaseFile: string;
  /** The address of the real listening server, for clients that open their own connections. */
  baseUrl: () => Promise<string>;
  /** Stops the app and removes its database, unless it is kept for a restart. */
  stop: (options?: { keepDatabase?: boolean }) => Promise<void>;
}

export interface StartOptions {
  /** Start on this database file (one a stopped app kept), as a restarted service would. */
  databaseFile?: string;
}

/** A real Strapi on its own SQLite file in a temporary folder, served through its real HTTP stack. */
export async function startStrapi(options: StartOptions = {}): Promise<TestApp> {
  const databaseFile = options.databaseFile ?? path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-test-')), 'data.db');
  const folder = path.dirname(databaseFile);
  process.env.DATABASE_FILENAME = databaseFile;
  const strapi = await createStrapi({ appDir: APP_DIR, distDir: path.join(APP_DIR, 'dist') }).load();
  await strapi.server.mount();
  const agent = supertest.agent(strapi.server.httpServer);
  return {
    strapi,
    api: () => agent,
    databaseFile,
    baseUrl: async () => {
      const server = strapi.server.httpServer;
      if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      if (address === null || typeof address === 'string') throw new Error('the test server has no TCP address');
      return `http://127.0.0.1:${address.port}`;
    },
    stop: async ({ keepDatabase = false } = {}) => {
      await strapi.destroy();
      if (!keepDatabase) fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
