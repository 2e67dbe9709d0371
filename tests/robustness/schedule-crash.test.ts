// @timing: a scheduled time reached during the test (run one at a time, see jest.config.js)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitUntil } from '../helpers/eventually';
import { inJakarta, sleep } from '../helpers/public-reads';
import { reportFigure } from '../helpers/robustness';
import { removeServiceDatabase, startServiceProcess, type ServiceProcess } from '../helpers/service-process';

let folder: string;
let databaseFile: string;
let service: ServiceProcess | undefined;

beforeAll(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-schedule-crash-'));
  databaseFile = path.join(folder, 'data.db');
});

afterAll(async () => {
  await service?.stop();
  await removeServiceDatabase(databaseFile);
  fs.rmSync(folder, { recursive: true, force: true });
});

interface Article {
  id: string;
  slug: string;
  status: string;
  publish_at: string | null;
  published_at: string | null;
}

async function getJson(baseUrl: string, route: string) {
  const response = await fetch(`${baseUrl}${route}`);
  return {
    status: response.status,
    body: response.status === 200 ? ((await response.json()) as { data: unknown; meta?: { pagination: { total: number } } }) : null,
  };
}

/** Ends the process as a crash or an out-of-memory kill would, and waits until it is gone. */
async function kill(target: ServiceProcess): Promise<void> {
  const exited = new Promise((resolve) => target.child.once('exit', resolve));
  target.child.kill('SIGKILL');
  await exited;
}

describe('a schedule that falls due while the service is down', () => {
  it('is published once as the service starts again, with published_at equal to publish_at', async () => {
    service = await startServiceProcess(databaseFile);
    const publishAtMs = Date.now() + 4_000;
    const publishAt = inJakarta(publishAtMs);
    const created = await fetch(`${service.baseUrl}/api/artikel`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${service.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        title: 'Due while down',
        category: 'Crash tests',
        content: 'Nobody was there.',
        status: 'scheduled',
        publish_at: publishAt,
      }),
    });
    expect(created.status).toBe(201);
    const article = ((await created.json()) as { data: Article }).data;
    expect(article.status).toBe('scheduled');

    await kill(service);
    expect(Date.now()).toBeLessThan(publishAtMs);
    service = undefined;
    // Past the due time (and the 5 s a running service would have had), with no service running.
    await sleep(publishAtMs + 6_000 - Date.now());

    const restartedAt = Date.now();
    service = await startServiceProcess(databaseFile);
    const { baseUrl } = service;
    const delay = await waitUntil(
      async () => (await getJson(baseUrl, `/api/artikel/${article.slug}`)).status === 200,
      15_000,
      'live after the restart',
    );
    reportFigure('overdue schedule live after the restart began', `${Date.now() - restartedAt} ms (${delay} ms after ready)`);

    const live = (await getJson(baseUrl, `/api/artikel/${article.slug}`)).body?.data as Article;
    expect(live.status).toBe('published');
    expect(live.publish_at).toBeNull();
    expect(new Date(live.published_at ?? 0).getTime()).toBe(publishAtMs);

    // Exactly once: one article in the list, however often the service tried.
    await sleep(2_000);
    const list = (await getJson(baseUrl, '/api/artikel?limit=50')).body;
    expect(list?.meta?.pagination.total).toBe(1);
    expect((list?.data as Article[]).map((item) => item.slug)).toEqual([article.slug]);
  }, 120_000);
});
