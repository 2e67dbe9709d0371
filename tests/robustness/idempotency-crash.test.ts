import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { removeServiceDatabase, serviceDatabaseName, startServiceProcess, type ServiceProcess } from '../helpers/service-process';
import { currentStore, withPostgres } from '../helpers/store';

// Far above the few milliseconds a blocked write takes to show up, for a loaded 2-core machine.
const WAIT_MS = 30_000;

let folder: string;
let databaseFile: string;
let service: ServiceProcess;

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-idempotency-crash-'));
  databaseFile = path.join(folder, 'data.db');
  service = await startServiceProcess(databaseFile);
});

afterAll(async () => {
  await service?.stop();
  await removeServiceDatabase(databaseFile);
  fs.rmSync(folder, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Holds a lock that an article's write needs, from outside the service, until released, so a POST
 * stops inside its transaction. PostgreSQL: the tag index table, written after the article row;
 * resolves once the service's connection waits for it. SQLite: the file's write lock; the service
 * waits in its busy timeout (5 s), so the kill comes well before that.
 */
async function blockWrites(): Promise<{ waiting: () => Promise<void>; release: () => Promise<void> }> {
  if (currentStore() === 'postgres') {
    const database = serviceDatabaseName(databaseFile) ?? '';
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const lockTaken = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holder = withPostgres(async (client) => {
      await client.query('BEGIN');
      await client.query('LOCK TABLE artikel_tags IN EXCLUSIVE MODE');
      locked();
      await released;
      await client.query('ROLLBACK');
    }, database);
    await lockTaken;
    return {
      waiting: async () => {
        const started = Date.now();
        for (;;) {
          const { rows } = await withPostgres(
            (client) =>
              client.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'", [database]),
            database,
          );
          if ((rows[0] as { n: number }).n > 0) return;
          if (Date.now() - started > WAIT_MS) throw new Error('the post never waited for the lock');
          await sleep(10);
        }
      },
      release: async () => {
        release();
        await holder;
      },
    };
  }
  const database = new Database(databaseFile);
  database.exec('BEGIN IMMEDIATE');
  return {
    // The service blocks its event loop in the busy wait, so nothing can be asked; the post has long arrived after this.
    waiting: async () => {
      await sleep(1500);
    },
    release: async () => {
      database.exec('ROLLBACK');
      database.close();
    },
  };
}

function post(baseUrl: string, token: string, key: string, body: object): Promise<Response> {
  return fetch(`${baseUrl}/api/artikel`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
    body: JSON.stringify(body),
  });
}

async function articlesFound(baseUrl: string, word: string): Promise<number> {
  const response = await fetch(`${baseUrl}/api/artikel?q=${word}`);
  return ((await response.json()) as { meta: { pagination: { total: number } } }).meta.pagination.total;
}

describe('Idempotency-Key across a crash', () => {
  it('gives the retry of a request cut off by SIGKILL mid-write one article: the cut-off write left nothing, the retry creates it, a later retry replays it', async () => {
    const token = service.token;
    const key = 'n8n-execution-4711-item-0';
    const body = { title: 'Killed mid-write kestrel', category: 'Crashes', content: 'A kestrel over the dunes.', tags: 'kestrel, dunes' };

    const blocker = await blockWrites();
    const cutOff = post(service.baseUrl, token, key, body).then(
      (response) => response.status,
      () => 'no answer',
    );
    await blocker.waiting();
    const exited = new Promise((resolve) => service.child.once('exit', resolve));
    service.child.kill('SIGKILL');
    await exited;
    await blocker.release();
    expect(await cutOff).toBe('no answer');

    service = await startServiceProcess(databaseFile);
    expect(await articlesFound(service.baseUrl, 'kestrel')).toBe(0);
    // The killed write's transaction ends (and frees the key) as soon as the database notices the
    // lost connection; until then the key answers 409, and a client retries.
    let retry = await post(service.baseUrl, token, key, body);
    const started = Date.now();
    while (retry.status === 409 && Date.now() - started < WAIT_MS) {
      await sleep(50);
      retry = await post(service.baseUrl, token, key, body);
    }
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    const created = (await retry.json()) as { data: { id: string } };

    const again = await post(service.baseUrl, token, key, body);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(((await again.json()) as { data: { id: string } }).data.id).toBe(created.data.id);
    expect(await articlesFound(service.baseUrl, 'kestrel')).toBe(1);
  });
});
