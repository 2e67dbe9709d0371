import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { reportFigure } from '../helpers/robustness';
import { removeServiceDatabase, serviceDatabaseName, startServiceProcess, type ServiceProcess } from '../helpers/service-process';
import { currentStore, withPostgres } from '../helpers/store';

// Six kills, each after another number of acknowledged posts (12, 19, 6, 13, 20, 7): each lands
// mid-burst with eight posts in flight, which is where a write acknowledged too early would show.
const CYCLES = 6;
const CONCURRENT_POSTS = 8;

interface Acknowledged {
  slug: string;
  title: string;
  content: string;
}

let folder: string;
let databaseFile: string;

beforeAll(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-crash-'));
  databaseFile = path.join(folder, 'data.db');
});

afterAll(async () => {
  await removeServiceDatabase(databaseFile);
  fs.rmSync(folder, { recursive: true, force: true });
});

function startService(): Promise<ServiceProcess> {
  return startServiceProcess(databaseFile);
}

/** The store's own check of its files: 'ok', or what it found broken. */
async function integrityCheck(): Promise<string> {
  if (currentStore() === 'postgres') {
    // amcheck verifies every B-tree index of the schema against its table; a broken one throws.
    const database = serviceDatabaseName(databaseFile) ?? '';
    return withPostgres(async (client) => {
      await client.query('CREATE EXTENSION IF NOT EXISTS amcheck');
      await client.query(
        "SELECT bt_index_check(c.oid, true) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam WHERE am.amname = 'btree' AND c.relnamespace = 'public'::regnamespace",
      );
      return 'ok';
    }, database);
  }
  // Opening the file replays or discards the write-ahead log as SQLite does after any crash.
  const database = new Database(databaseFile);
  try {
    return (database.pragma('integrity_check', { simple: true }) as string) ?? 'no answer';
  } finally {
    database.close();
  }
}

const INTEGRITY_CHECK = currentStore() === 'postgres' ? 'amcheck of every index' : 'integrity_check (synchronous=NORMAL in WAL mode)';

/** Posts articles CONCURRENT_POSTS at a time until `killAfter` were acknowledged, then SIGKILLs the service. */
async function burstAndKill(
  service: ServiceProcess,
  cycle: number,
  killAfter: number,
): Promise<{ acknowledged: Acknowledged[]; failed: number }> {
  const acknowledged: Acknowledged[] = [];
  let failed = 0;
  let next = 0;
  let killed = false;
  const exited = new Promise((resolve) => service.child.once('exit', resolve));

  const worker = async () => {
    while (!killed) {
      next += 1;
      const title = `Crash cycle ${cycle} post ${next}`;
      const content = `Written in cycle ${cycle} as post ${next}. ${'Every word of this body must survive. '.repeat(50)}`;
      try {
        const response = await fetch(`${service.baseUrl}/api/artikel`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${service.token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ title, category: 'Crash tests', content, tags: `cycle ${cycle}` }),
        });
        const body = (await response.json()) as { data: { slug: string } };
        if (response.status === 201) acknowledged.push({ slug: body.data.slug, title, content });
        else failed += 1;
      } catch {
        failed += 1;
      }
      if (!killed && acknowledged.length >= killAfter) {
        killed = true;
        service.child.kill('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENT_POSTS }, worker));
  await exited;
  return { acknowledged, failed };
}

describe('crash safety', () => {
  it(`keeps every acknowledged post whole across ${CYCLES} SIGKILLs mid-burst, with an intact database`, async () => {
    const everything: Acknowledged[] = [];
    let unacknowledged = 0;
    const checks: string[] = [];

    for (let cycle = 1; cycle <= CYCLES; cycle += 1) {
      const service = await startService();
      try {
        // Everything acknowledged before the earlier kills is still there, whole.
        for (const post of everything) {
          const response = await fetch(`${service.baseUrl}/api/artikel/${post.slug}`);
          expect(response.status).toBe(200);
          const { data } = (await response.json()) as { data: { title: string; content: string } };
          expect(data).toMatchObject({ title: post.title, content: post.content });
        }
      } catch (error) {
        service.child.kill('SIGKILL');
        throw error;
      }
      const { acknowledged, failed } = await burstAndKill(service, cycle, 5 + ((cycle * 7) % 20));
      everything.push(...acknowledged);
      unacknowledged += failed;
      const integrity = await integrityCheck();
      checks.push(integrity);
      expect(integrity).toBe('ok');
    }

    // A last start: every acknowledged post is readable, and boot repaired the search and tag indexes.
    const service = await startService();
    try {
      for (const post of everything) expect((await fetch(`${service.baseUrl}/api/artikel/${post.slug}`)).status).toBe(200);
      const listed = (await (await fetch(`${service.baseUrl}/api/artikel?kategori=crash-tests&limit=1`)).json()) as {
        meta: { pagination: { total: number } };
      };
      const searched = (await (await fetch(`${service.baseUrl}/api/artikel?q=survive&limit=1`)).json()) as {
        meta: { pagination: { total: number } };
      };
      expect(listed.meta.pagination.total).toBeGreaterThanOrEqual(everything.length);
      expect(searched.meta.pagination.total).toBe(listed.meta.pagination.total);
    } finally {
      service.child.kill('SIGKILL');
    }
    reportFigure(
      'crash safety',
      `${CYCLES} SIGKILLs mid-burst; ${everything.length} acknowledged posts all whole after restart; ${unacknowledged} requests cut off unanswered; ${INTEGRITY_CHECK} ${checks.filter((check) => check === 'ok').length}/${checks.length} ok`,
    );
    // About 40 s on a loaded 2-core machine (ten cycles took 67 s on SQLite, 95 s on PostgreSQL).
  }, 240_000);
});
