import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { removeServiceDatabase, runSqlBehindTheService, startServiceProcess } from '../helpers/service-process';

let folder: string;

beforeAll(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-repair-'));
});

afterAll(async () => {
  await removeServiceDatabase(path.join(folder, 'data.db'));
  fs.rmSync(folder, { recursive: true, force: true });
});

describe('categories stored without a slug', () => {
  it('are given one from their name when the service starts, and show it publicly', async () => {
    const databaseFile = path.join(folder, 'data.db');
    // After a first start the database has its schema; the rows below are what the admin stored before slugs were generated.
    await (await startServiceProcess(databaseFile)).stop();
    const insert = 'INSERT INTO categories (document_id, name, slug, created_at, updated_at) VALUES (?, ?, ?, ?, ?)';
    const now = new Date().toISOString();
    await runSqlBehindTheService(databaseFile, insert, ['legacycategory0000000001', 'Old weddings', null, now, now]);
    await runSqlBehindTheService(databaseFile, insert, ['legacycategory0000000002', 'Old portraits', '', now, now]);

    const service = await startServiceProcess(databaseFile);
    try {
      const response = await fetch(`${service.baseUrl}/api/artikel/categories`);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { data: unknown }).data).toEqual([
        { name: 'Old portraits', slug: 'old-portraits', article_count: 0 },
        { name: 'Old weddings', slug: 'old-weddings', article_count: 0 },
      ]);
    } finally {
      await service.stop();
    }
  });
});
