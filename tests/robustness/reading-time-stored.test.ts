import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { knex } from 'knex';
import { uncountedRowsQuery } from '../../src/plugins/artikel/server/src/repositories/reading-times';
import { removeServiceDatabase, runSqlBehindTheService, startServiceProcess, type ServiceProcess } from '../helpers/service-process';
import { reportFigure } from '../helpers/robustness';
import { currentStore, postgresDatabaseFor, withPostgres, withSqliteFile } from '../helpers/store';
import { eventually } from '../helpers/eventually';

let folder: string;
let databaseFile: string;

// 96 KB of the markup that made the reading-time pattern slow: each uncached read of a list
// holding the article used to count it again.
const HOSTILE_CONTENT = `Awal kata. ${'](‹<'.repeat(24_000)} akhir.`;

async function start(): Promise<ServiceProcess> {
  return startServiceProcess(databaseFile, { ARTIKEL_RATE_LIMIT: '0', ARTIKEL_READ_CACHE_MB: '0' });
}

async function readingTimeOf(service: ServiceProcess, slug: string): Promise<number> {
  const list = (await (await fetch(`${service.baseUrl}/api/artikel?limit=50`)).json()) as {
    data: Array<{ slug: string; reading_time: number }>;
  };
  return list.data.find((article) => article.slug === slug)?.reading_time ?? -1;
}

beforeAll(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-reading-time-'));
  databaseFile = path.join(folder, 'data.db');
});

afterAll(async () => {
  await removeServiceDatabase(databaseFile);
  fs.rmSync(folder, { recursive: true, force: true });
});

describe('reading time is counted when the content is written', () => {
  it('serves the minutes stored with the article, and counts rows written before that once, at start', async () => {
    let service = await start();
    const slugs: string[] = [];
    try {
      const headers = { Authorization: `Bearer ${service.token}`, 'Content-Type': 'application/json' };
      for (const [title, content] of [
        ['Panjang', 'kata '.repeat(1_000)],
        ['Penuh tanda', HOSTILE_CONTENT],
      ]) {
        const created = await fetch(`${service.baseUrl}/api/artikel`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ title, category: 'Uji', content }),
        });
        expect(created.status).toBe(201);
        slugs.push(((await created.json()) as { data: { slug: string } }).data.slug);
      }
      expect(await readingTimeOf(service, slugs[0])).toBe(5);
      // Uncached (the read cache is off): the list reads the stored minutes, not the content's 96 KB of markup.
      const started = performance.now();
      for (let read = 0; read < 20; read += 1) await readingTimeOf(service, slugs[1]);
      reportFigure('uncached list holding a 96 KB article of markup', `${((performance.now() - started) / 20).toFixed(1)} ms per read`);
    } finally {
      await service.stop();
    }

    // Rows as an older version (or a tool behind the service) left them: no reading time stored.
    await runSqlBehindTheService(databaseFile, 'UPDATE articles SET reading_time = NULL');
    service = await start();
    try {
      expect(await readingTimeOf(service, slugs[0])).toBe(5);
      // The fill runs in the background once the service listens.
      const last = await eventually(
        async () => ({
          stored: Number(
            ((await (await fetch(`${service.baseUrl}/api/artikel/${slugs[0]}`)).json()) as { data: { reading_time: number } }).data
              .reading_time,
          ),
          pending: await countNull(),
        }),
        ({ pending }) => pending === 0,
        { withinMs: 60_000, everyMs: 200 },
      );
      expect(last).toEqual({ stored: 5, pending: 0 });
    } finally {
      await service.stop();
    }
  });
});

describe("a start's look for rows without a reading time", () => {
  it('reads them through an index of such rows, not every article row', async () => {
    const service = await start();
    await service.stop();
    // The statement the start runs, from the repository itself, planned on the store the service left.
    const statementWriter = knex({ client: currentStore() === 'postgres' ? 'pg' : 'better-sqlite3', useNullAsDefault: true });
    const look = uncountedRowsQuery(statementWriter, 0, 200).toString();
    await statementWriter.destroy();
    const plan =
      currentStore() === 'postgres'
        ? await withPostgres(async (client) => {
            // The tables are tiny, where a sequential read is cheapest: asked for the plan that an index allows.
            await client.query('SET enable_seqscan = off');
            return (await client.query(`EXPLAIN ${look}`)).rows.map((row) => String(row['QUERY PLAN'])).join('\n');
          }, postgresDatabaseFor(databaseFile))
        : withSqliteFile(databaseFile, (database) =>
            (database.prepare(`EXPLAIN QUERY PLAN ${look}`).all() as Array<{ detail: string }>).map((row) => row.detail).join('\n'),
          );
    expect(plan).toContain('artikel_uncounted_reading_times');
  });
});

/** Article rows without a stored reading time, read behind the service. */
async function countNull(): Promise<number> {
  const sql = 'SELECT count(*) AS n FROM articles WHERE reading_time IS NULL';
  if (currentStore() === 'postgres')
    return withPostgres(async (client) => Number((await client.query(sql)).rows[0].n), postgresDatabaseFor(databaseFile));
  return withSqliteFile(databaseFile, (database) => Number((database.prepare(sql).get() as { n: number }).n));
}
