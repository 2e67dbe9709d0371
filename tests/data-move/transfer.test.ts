import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { currentStore } from '../helpers/store';
import { removeServiceDatabase, startServiceProcess, type ServiceProcess } from '../helpers/service-process';
import { sqliteEnv, strapiCli } from '../helpers/strapi-cli';
import { eventually } from '../helpers/eventually';

/**
 * `strapi transfer` from a studio's SQLite file into a RUNNING service (a fresh PostgreSQL database
 * under `npm run test:postgres`, another SQLite file otherwise) that has already answered, and
 * remembered, reads of its old data. Without a restart or any manual step, every public read of the
 * destination must then answer what the source answered, view counts included.
 */

// The transfer itself takes seconds; the destination re-indexes once the writes are quiet.
const SETTLED_WITHIN_MS = 60_000;

jest.setTimeout(600_000);

let folder: string;
let sourceFile: string;
let destinationFile: string;

beforeAll(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-transfer-'));
  sourceFile = path.join(folder, 'source.db');
  destinationFile = path.join(folder, 'destination.db');
});

afterAll(async () => {
  await removeServiceDatabase(sourceFile);
  await removeServiceDatabase(destinationFile);
  fs.rmSync(folder, { recursive: true, force: true });
});

async function json(service: ServiceProcess, url: string, init: RequestInit = {}): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${service.baseUrl}${url}`, init);
  // The service's own address (in paging links) is taken out, so two services' answers compare.
  return { status: response.status, body: JSON.parse((await response.text()).replaceAll(service.baseUrl, '')) as unknown };
}

const ARTICLES = [
  { title: 'Transferred portraits', category: 'Portraits', tags: 'Portrait, Window light', content: 'North light, no flash.' },
  { title: 'Transferred wedding notes', category: 'Weddings', tags: 'Wedding, Portrait', content: 'Rings, rain and a borrowed umbrella.' },
  { title: 'Transferred draft', category: 'Studio', tags: 'Secret', content: 'Not yet.', status: 'draft' },
];
const READS = [
  '/api/artikel',
  '/api/artikel/categories',
  '/api/artikel/latest',
  '/api/artikel?q=umbrella',
  '/api/artikel?tag=portrait',
  '/api/artikel?kategori=weddings',
  '/api/artikel?tag=secret',
];

async function publicReads(service: ServiceProcess, slugs: string[]): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  for (const url of READS) answers[url] = await json(service, url);
  // Each article by slug counts a view: read here only through the lists' counts, plus the 404s of the old data.
  // (A search for the slug's words finds the article, and others holding forms of them: "portraits" finds a "Portrait" tag.)
  for (const slug of slugs)
    answers[`views of ${slug}`] = (
      (await json(service, `/api/artikel?q=${encodeURIComponent(slug.replaceAll('-', ' '))}`)).body as {
        data: Array<{ slug: string; views: number }>;
      }
    ).data
      .filter((article) => article.slug === slug)
      .map((article) => article.views);
  return answers;
}

describe('moving the data with strapi transfer into a running service', () => {
  it('serves exactly what the source served, view counts included, without a restart', async () => {
    const source = await startServiceProcess(sourceFile, sqliteEnv(sourceFile));
    const slugs: string[] = [];
    let before: Record<string, unknown>;
    try {
      for (const article of ARTICLES) {
        const created = await json(source, '/api/artikel', {
          method: 'POST',
          headers: { Authorization: `Bearer ${source.token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(article),
        });
        expect(created.status).toBe(201);
        if (article.status !== 'draft') slugs.push((created.body as { data: { slug: string } }).data.slug);
      }
      for (let read = 0; read < 3; read += 1) expect((await json(source, `/api/artikel/${slugs[0]}`)).status).toBe(200);
      before = await publicReads(source, slugs);
    } finally {
      await source.stop();
    }
    expect(before[`views of ${slugs[0]}`]).toEqual([3]);

    // The tests' build has no admin panel pages; Strapi would answer the transfer's WebSocket request
    // with its missing index.html and close it. An API-only instance (as a built one) takes the transfer.
    const destination = await startServiceProcess(destinationFile, { SERVE_ADMIN_PANEL: 'false' });
    try {
      // The destination has served (and remembered) its own, older data.
      const old = await json(destination, '/api/artikel', {
        method: 'POST',
        headers: { Authorization: `Bearer ${destination.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: 'Only on the destination', category: 'Old', content: 'Replaced by the transfer.' }),
      });
      expect(old.status).toBe(201);
      expect(((await json(destination, '/api/artikel')).body as { meta: { pagination: { total: number } } }).meta.pagination.total).toBe(1);
      expect((await json(destination, `/api/artikel/${slugs[0]}`)).status).toBe(404);

      // A transfer token, as an administrator creates one under Settings → Transfer Tokens.
      const admin = await json(destination, '/admin/register-admin', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'owner@studio.example', firstname: 'Olga', lastname: 'Owner', password: 'Owner-Passw0rd' }),
      });
      const jwt = (admin.body as { data: { token: string } }).data.token;
      const created = await json(destination, '/admin/transfer/tokens', {
        method: 'POST',
        headers: { Authorization: `Bearer ${jwt}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'move', description: '', permissions: ['push'], lifespan: null }),
      });
      expect(created.status).toBe(201);
      const transferToken = (created.body as { data: { accessKey: string } }).data.accessKey;

      // Files are left out: the destination runs in this very app folder, and a transfer of files
      // would move its public/uploads aside (uploads_backup_*); the public reads carry none here.
      await strapiCli(
        ['transfer', '--to', `${destination.baseUrl}/admin`, '--to-token', transferToken, '--exclude', 'files', '--force'],
        sqliteEnv(sourceFile),
      );

      const started = Date.now();
      const after = await eventually(
        () => publicReads(destination, slugs),
        (reads) => JSON.stringify(reads) === JSON.stringify(before),
        { withinMs: SETTLED_WITHIN_MS },
      );
      expect(after).toEqual(before);
      process.stdout.write(
        `[data-move ${currentStore()}] strapi transfer into a running service: every public read as on the source ${Date.now() - started} ms after the transfer ended\n`,
      );
      const article = (await json(destination, `/api/artikel/${slugs[0]}`)).body as { data: { views: number } };
      expect(article.data.views).toBe(4);
    } finally {
      await destination.stop();
    }
  });
});
