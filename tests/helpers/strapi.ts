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
  stop: () => Promise<void>;
}

/** A real Strapi on its own SQLite file in a temporary folder, served through its real HTTP stack. */
export async function startStrapi(): Promise<TestApp> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-test-'));
  const databaseFile = path.join(folder, 'data.db');
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
    stop: async () => {
      await strapi.destroy();
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
