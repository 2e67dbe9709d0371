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
    stop: async () => {
      await strapi.destroy();
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
