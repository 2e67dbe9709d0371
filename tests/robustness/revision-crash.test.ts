import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { reportFigure } from '../helpers/robustness';
import { removeServiceDatabase, startServiceProcess, type ServiceProcess } from '../helpers/service-process';

let folder: string;
let databaseFile: string;
let service: ServiceProcess | undefined;

beforeAll(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-revision-crash-'));
  databaseFile = path.join(folder, 'data.db');
});

afterAll(async () => {
  await service?.stop();
  await removeServiceDatabase(databaseFile);
  fs.rmSync(folder, { recursive: true, force: true });
});

const ARTICLES = 4;
const WRITES_PER_ARTICLE = 30;

async function request(target: ServiceProcess, method: string, route: string, body?: object) {
  const response = await fetch(`${target.baseUrl}${route}`, {
    method,
    headers: { Authorization: `Bearer ${target.token}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : (JSON.parse(text) as { data: Record<string, unknown> }) };
}

describe('a crash in the middle of writes', () => {
  it('never leaves a write without its revision: after a SIGKILL every article’s newest revision is the article as stored', async () => {
    service = await startServiceProcess(databaseFile, { ARTIKEL_RATE_LIMIT: '0' });
    const slugs: string[] = [];
    for (let index = 0; index < ARTICLES; index += 1) {
      const created = await request(service, 'POST', '/api/artikel', {
        title: `Crash harbour ${index}`,
        category: 'Crash tests',
        content: 'Version 0.',
      });
      expect(created.status).toBe(201);
      slugs.push(String(created.body?.data.slug));
    }
    // Writes to every article at once; the process is killed while they run.
    const acknowledged = new Map<string, number>();
    const target = service;
    const writes = slugs.map(async (slug) => {
      for (let version = 1; version <= WRITES_PER_ARTICLE; version += 1) {
        const answer = await request(target, 'PATCH', `/api/artikel/${slug}`, { content: `Version ${version}.` }).catch(() => null);
        if (answer === null) return;
        if (answer.status === 200) acknowledged.set(slug, version);
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const exited = new Promise((resolve) => target.child.once('exit', resolve));
    target.child.kill('SIGKILL');
    await exited;
    await Promise.all(writes);
    service = undefined;

    service = await startServiceProcess(databaseFile, { ARTIKEL_RATE_LIMIT: '0' });
    let revisionsChecked = 0;
    for (const slug of slugs) {
      const stored = await request(service, 'GET', `/api/artikel/${slug}`);
      expect(stored.status).toBe(200);
      const content = String(stored.body?.data.content);
      const entries = (await request(service, 'GET', `/api/artikel/${slug}/revisions`)).body?.data as unknown as Array<{ number: number }>;
      const newest = await request(service, 'GET', `/api/artikel/${slug}/revisions/${entries[0].number}`);
      expect((newest.body?.data.article as { content: string }).content).toBe(content);
      // Every write the client saw answered is there, and its revision with it.
      const version = Number(/Version (\d+)\./.exec(content)?.[1]);
      expect(version).toBeGreaterThanOrEqual(acknowledged.get(slug) ?? 0);
      expect(entries.length).toBe(version + 1);
      revisionsChecked += entries.length;
    }
    reportFigure(
      'revisions after a SIGKILL mid-writes',
      `${[...acknowledged.values()].reduce((sum, version) => sum + version, 0)} writes acknowledged, ${revisionsChecked} revisions, each article's newest equal to its stored text`,
    );
  }, 180_000);
});
