import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { currentStore, ensurePostgresDatabase, postgresEnv } from '../helpers/store';
import { sqliteEnv, strapiCli } from '../helpers/strapi-cli';
import { removeServiceDatabase, serviceDatabaseName, startServiceProcess, type ServiceProcess } from '../helpers/service-process';

/**
 * Moving a studio's data the way the README tells: `strapi export` from the SQLite file, `strapi
 * import` into another store (a fresh PostgreSQL database under `npm run test:postgres`, another
 * SQLite file otherwise), then the service on the destination answers every public read as the
 * source did, view counts included, with its tag and search index rebuilt at start.
 */

jest.setTimeout(600_000);

let folder: string;
let sourceFile: string;
let destinationFile: string;

beforeAll(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-move-'));
  sourceFile = path.join(folder, 'source.db');
  destinationFile = path.join(folder, 'destination.db');
});

afterAll(async () => {
  // Under PostgreSQL the source service process was pointed at the SQLite file, yet its helper made a database for it too.
  await removeServiceDatabase(sourceFile);
  await removeServiceDatabase(destinationFile);
  fs.rmSync(folder, { recursive: true, force: true });
});

/** Runs SQL on the source's SQLite file (the suite's helper would use PostgreSQL under test:postgres). */
function runSqlOnSource(sql: string, values: unknown[]): void {
  const database = new Database(sourceFile);
  try {
    database.prepare(sql).run(...values);
  } finally {
    database.close();
  }
}

/** The destination's store: an empty PostgreSQL database on the test cluster, or a SQLite file. */
async function destinationEnv(): Promise<Record<string, string>> {
  if (currentStore() === 'sqlite') return sqliteEnv(destinationFile);
  const database = serviceDatabaseName(destinationFile) as string;
  await ensurePostgresDatabase(database, { empty: true });
  return postgresEnv(database);
}

/** The app's own uploads folder, which holds the files of the test files running beside this one. */
const APP_UPLOADS = path.resolve(__dirname, '..', '..', 'public', 'uploads');

/**
 * Exports the source file and imports the archive into the destination. The import restores the
 * archive's files into a public folder of its own (strapiCli): the app's uploads stay as they were.
 */
async function move(archive: string): Promise<void> {
  fs.mkdirSync(APP_UPLOADS, { recursive: true });
  const neighbour = path.join(APP_UPLOADS, `${path.basename(folder)}_neighbour.txt`);
  fs.writeFileSync(neighbour, 'a file another test uploaded');
  try {
    await strapiCli(['export', '--no-encrypt', '--no-compress', '-f', archive], sqliteEnv(sourceFile));
    expect(fs.existsSync(`${archive}.tar`)).toBe(true);
    await strapiCli(['import', '-f', `${archive}.tar`, '--force'], await destinationEnv());
    expect(fs.existsSync(neighbour)).toBe(true);
  } finally {
    fs.rmSync(neighbour, { force: true });
  }
}

/**
 * An answer with the service's own address taken out of it (the paging links), so two services'
 * answers compare; and with its cursors masked, which carry the hour they were issued in.
 */
async function get(service: ServiceProcess, url: string): Promise<unknown> {
  const response = await fetch(`${service.baseUrl}${url}`);
  expect({ url, status: response.status }).toEqual({ url, status: 200 });
  return JSON.parse((await response.text()).replaceAll(service.baseUrl, '').replace(/cursor=[A-Za-z0-9_.-]+/g, 'cursor=…'));
}

type Article = { slug: string; views: number; related: Array<Record<string, unknown>> };

/** An article's answer with the counts it shows of other articles left out (reading counts views). */
function withoutRelatedViews(body: unknown): unknown {
  const { data } = body as { data: Article };
  return { data: { ...data, related: data.related.map(({ views: _views, ...related }) => related) } };
}

const ARTICLES = [
  {
    title: 'Spring mini sessions are open',
    category: 'Portraits',
    tags: 'Portrait, Spring, Offer',
    content: 'Book a **20-minute** session in the garden.\n\nSlots fill fast.',
  },
  {
    title: 'How we edit a wedding gallery',
    category: 'Weddings',
    tags: 'Wedding, Editing',
    content: 'Culling, colour, and the *final* sequence.',
  },
  {
    title: 'Über Licht im Studio',
    category: 'Studio',
    tags: 'Licht, Studio, Portrait',
    content: 'Weiches Licht für Porträts: ein Überblick.',
  },
  {
    title: 'Newborn safety first',
    category: 'Portraits',
    tags: 'Newborn, Safety',
    content: 'Warm room, slow poses, and a parent always in reach.',
  },
  { title: 'Second shooter notes', category: 'weddings', tags: 'Wedding, Team', content: 'Who covers what during the ceremony.' },
  { title: 'Gear we retired', category: 'Studio', content: 'Old strobes, new LEDs, 100% less heat.' },
  { title: 'A draft nobody sees', category: 'Studio', tags: 'Secret', content: 'Not yet.', status: 'draft' },
];

/** Every public read that shows no view count changing, in one object. */
async function publicReads(service: ServiceProcess): Promise<Record<string, unknown>> {
  const urls = [
    '/api/artikel',
    '/api/artikel?limit=2&page=1',
    '/api/artikel?limit=2&page=2',
    '/api/artikel?limit=2&page=3',
    '/api/artikel?limit=2&page=4',
    '/api/artikel/categories',
    '/api/artikel/latest',
    '/api/artikel?q=wedding',
    '/api/artikel?q=%C3%BCber',
    '/api/artikel?q=li',
    '/api/artikel?q=100%25',
    '/api/artikel?q=secret',
    '/api/artikel?tag=portrait',
    '/api/artikel?tag=Wedding',
    '/api/artikel?tag=secret',
    '/api/artikel?kategori=weddings',
    '/api/artikel?kategori=studio&tag=licht',
  ];
  const answers: Record<string, unknown> = {};
  for (const url of urls) answers[url] = await get(service, url);
  return answers;
}

/** What the source served before the first move: its published slugs, each one's answer, and every other public read. */
interface SourceReads {
  slugs: string[];
  bySlug: Record<string, unknown>;
  before: Record<string, unknown>;
}

/**
 * Fills the source through its service: ARTICLES posted, then read 4, 3, 2, 1, 1, 1 times (the
 * last read of each is the answer kept), then the reads that count no view.
 */
async function fillSource(): Promise<SourceReads> {
  const source = await startServiceProcess(sourceFile, sqliteEnv(sourceFile));
  const slugs: string[] = [];
  const bySlug: Record<string, unknown> = {};
  let before: Record<string, unknown>;
  try {
    for (const article of ARTICLES) {
      const response = await fetch(`${source.baseUrl}/api/artikel`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${source.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(article),
      });
      expect(response.status).toBe(201);
      const { data } = (await response.json()) as { data: { slug: string } };
      if (article.status !== 'draft') slugs.push(data.slug);
    }
    // Views: 3, 2, 1, 0, ... reads before the move.
    for (const [index, slug] of slugs.entries())
      for (let read = 0; read < Math.max(0, 3 - index); read += 1) await get(source, `/api/artikel/${slug}`);
    // Each article's answer (which counts a view), then the reads that count none.
    for (const slug of slugs) bySlug[slug] = await get(source, `/api/artikel/${slug}`);
    before = await publicReads(source);
  } finally {
    await source.stop();
  }
  return { slugs, bySlug, before };
}

// Whether the destination has served the first move's import: the first test's doing or, when it
// has not run, firstMoveServed's (each test can run alone: npx jest <file> -t '<name>').
let firstMoveDone = false;

/** The source filled and moved once into the destination, which then started and served it. */
async function firstMoveServed(): Promise<void> {
  if (firstMoveDone) return;
  await fillSource();
  await move(path.join(folder, 'backup'));
  const destination = await startServiceProcess(destinationFile, await destinationEnv());
  try {
    await get(destination, '/api/artikel');
  } finally {
    await destination.stop();
  }
  firstMoveDone = true;
}

describe('moving the data with strapi export and strapi import', () => {
  it(`carries articles, categories and view counts from a SQLite file to ${currentStore() === 'postgres' ? 'PostgreSQL' : 'another SQLite file'}, and the index is right at once`, async () => {
    const { slugs, bySlug, before } = await fillSource();
    expect((bySlug[slugs[0]] as { data: Article }).data.views).toBe(4);

    await move(path.join(folder, 'backup'));

    const destination = await startServiceProcess(destinationFile, await destinationEnv());
    // From here the destination holds and serves the first import, as the next test needs.
    firstMoveDone = true;
    try {
      expect(await publicReads(destination)).toEqual(before);
      for (const slug of slugs) {
        const after = (await get(destination, `/api/artikel/${slug}`)) as { data: Article };
        const was = bySlug[slug] as { data: Article };
        expect(after.data.views).toBe(was.data.views + 1);
        expect(withoutRelatedViews({ data: { ...after.data, views: was.data.views } })).toEqual(withoutRelatedViews(was));
      }
    } finally {
      await destination.stop();
    }
  });

  it('rebuilds the index of articles a second import replaced in a destination that already served them', async () => {
    // The source changes behind the service (as any edit would between two moves), then moves again
    // into the destination, whose index rows were built from the first import's rows.
    await firstMoveServed();
    const slug = 'spring-mini-sessions-are-open';
    runSqlOnSource("UPDATE articles SET tags = 'Moved, Fresh', title = 'Spring sessions moved' WHERE slug = ?", [slug]);
    await move(path.join(folder, 'backup-2'));

    const destination = await startServiceProcess(destinationFile, await destinationEnv());
    try {
      const slugsOf = async (url: string) =>
        ((await get(destination, url)) as { data: Array<{ slug: string }> }).data.map((article) => article.slug);
      expect(await slugsOf('/api/artikel?tag=fresh')).toEqual([slug]);
      expect(await slugsOf('/api/artikel?tag=offer')).toEqual([]);
      expect(await slugsOf('/api/artikel?q=sessions%20moved')).toEqual([slug]);
      expect(await slugsOf('/api/artikel?q=mini')).toEqual([]);
      const article = (await get(destination, `/api/artikel/${slug}`)) as { data: { tags: string[]; views: number } };
      expect(article.data.tags).toEqual(['Moved', 'Fresh']);
      // 4 on the source (the second import replaced the destination's count with it), and this read.
      expect(article.data.views).toBe(5);
    } finally {
      await destination.stop();
    }
  });
});
