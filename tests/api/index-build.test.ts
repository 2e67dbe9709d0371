// @timing: the longest pause of reads during an index build (run one at a time, see jest.config.js)
import Database from 'better-sqlite3';
import { createArticle, createCategory } from '../helpers/fixtures';
import { currentStore, withPostgres, withSqliteFile } from '../helpers/store';
import { startStrapi, type TestApp } from '../helpers/strapi';
import { eventually } from '../helpers/eventually';

/**
 * The tag and search index is built in the background when the service starts on a database whose
 * index is missing or incomplete (a new or imported file): the service answers at once, and until
 * the build is done its searches, tag filters and related articles read the articles themselves,
 * with the same answers.
 */

// Far above the few hundred milliseconds the build of these articles takes, for a loaded 2-core machine.
const BUILD_MS = 30_000;

let app: TestApp;

beforeAll(async () => {
  app = await startStrapi();
  const travel = await createCategory(app.strapi, 'Reisen', 'reisen');
  const technology = await createCategory(app.strapi, 'Technik', 'technik');
  await createArticle(app.strapi, {
    title: 'Über den Wolken',
    slug: 'ueber-den-wolken',
    tags: 'Luft, Äpfel',
    category: travel,
    content: 'Ein Flug.',
  });
  await createArticle(app.strapi, {
    title: 'Unter Wasser',
    slug: 'unter-wasser',
    tags: 'äpfel, Meer',
    category: travel,
    content: 'Ein Tauchgang.',
  });
  await createArticle(app.strapi, {
    title: 'Kamera',
    slug: 'kamera',
    tags: 'Luft',
    category: technology,
    content: 'ÜBER alles: das Objektiv.',
  });
  await createArticle(app.strapi, { title: 'Luftbild', slug: 'luftbild', tags: 'Luftbild', category: technology, content: 'Von oben.' });
  await createArticle(app.strapi, { title: 'Entwurf über Äpfel', slug: 'entwurf', tags: 'Luft, Äpfel', category: travel, status: 'draft' });
});

afterAll(async () => {
  await app.stop();
});

const slugsOf = async (url: string): Promise<string[]> => {
  const answer = await app.api().get(url);
  expect(answer.status).toBe(200);
  return (answer.body.data as Array<{ slug: string }>).map((article) => article.slug).sort();
};

const relatedOf = async (slug: string): Promise<string[]> => {
  const answer = await app.api().get(`/api/artikel/${slug}`);
  expect(answer.status).toBe(200);
  return (answer.body.data.related as Array<{ slug: string }>).map((article) => article.slug);
};

/** What the readers see, by search (any case, letters outside ASCII included), by whole tag and as related articles. */
const answers = async () => ({
  searchLower: await slugsOf('/api/artikel?q=%C3%BCber'),
  searchUpper: await slugsOf('/api/artikel?q=%C3%9CBER'),
  searchTwoWords: await slugsOf('/api/artikel?q=flug%20wolken'),
  tagUmlaut: await slugsOf('/api/artikel?tag=%C3%84PFEL'),
  tagWhole: await slugsOf('/api/artikel?tag=luft'),
  tagAndCategory: await slugsOf('/api/artikel?tag=luft&kategori=reisen'),
  related: await relatedOf('ueber-den-wolken'),
});

const EXPECTED = {
  searchLower: ['kamera', 'ueber-den-wolken'],
  searchUpper: ['kamera', 'ueber-den-wolken'],
  searchTwoWords: ['ueber-den-wolken'],
  tagUmlaut: ['ueber-den-wolken', 'unter-wasser'],
  tagWhole: ['kamera', 'ueber-den-wolken'],
  tagAndCategory: ['ueber-den-wolken'],
  // Shares a tag and the category, then shares a tag, then the newest of the rest.
  related: ['unter-wasser', 'kamera', 'luftbild'],
};

/** The index's tables emptied, as on a file whose articles were imported behind the service's back. */
async function emptyTheIndex(): Promise<void> {
  const tables =
    app.store === 'sqlite'
      ? ['artikel_tags', 'artikel_search', 'artikel_search_words', 'artikel_search_docs']
      : ['artikel_tags', 'artikel_search_docs', 'artikel_search_long_terms'];
  for (const table of tables) await app.strapi.db.connection.raw(`DELETE FROM ${table}`);
}

/** How many articles have a search entry, read on a connection of its own (the service's write connection may be held, see holdTheWriteTurn). */
const indexedCount = async (): Promise<number> => {
  const sql = 'SELECT COUNT(*) AS count FROM artikel_search_docs';
  if (app.store === 'postgres')
    return withPostgres(async (client) => Number((await client.query(sql)).rows[0].count), app.databaseName ?? undefined);
  return withSqliteFile(app.databaseFile, (database) => Number((database.prepare(sql).get() as { count: number }).count));
};

/**
 * Holds the articles' write turn, which each chunk of the build takes, until released: SQLite's one
 * write connection (the service reads on its own read-only one), PostgreSQL's article-writes lock.
 */
async function holdTheWriteTurn(): Promise<{ release: () => Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let taken!: () => void;
  const turnTaken = new Promise<void>((resolve) => (taken = resolve));
  const holder =
    app.store === 'sqlite'
      ? app.strapi.db.connection.transaction(async () => {
          taken();
          await released;
        })
      : withPostgres(async (client) => {
          await client.query("SELECT pg_advisory_lock(hashtextextended('artikel:article-writes', 0))");
          taken();
          await released;
          await client.query("SELECT pg_advisory_unlock(hashtextextended('artikel:article-writes', 0))");
        }, app.databaseName ?? undefined);
  await turnTaken;
  return {
    release: async () => {
      release();
      await holder;
    },
  };
}

async function untilIndexed(expected: number): Promise<void> {
  expect(await eventually(indexedCount, (count) => count >= expected, { withinMs: BUILD_MS, everyMs: 100 })).toBe(expected);
}

describe('the index built in the background', () => {
  it('answers searches, tag filters and related articles by reading the articles while the index is built, and from the index after', async () => {
    // Nothing is read before: an answer remembered from the index would not show how the scan answers.
    const published = await indexedCount();
    expect(published).toBe(4);

    await emptyTheIndex();
    const turn = await holdTheWriteTurn();
    try {
      // What boot does: the index no longer covers the published articles, so it is built in the background.
      await app.strapi.plugin('artikel').service('article-index').start();
      expect(await indexedCount()).toBe(0);
      expect(await answers()).toEqual(EXPECTED);
      expect(await indexedCount()).toBe(0);
    } finally {
      await turn.release();
    }

    await untilIndexed(published);
    expect(await answers()).toEqual(EXPECTED);
  });

  it('indexes, at the next start, the articles a stopped service had not indexed', async () => {
    await emptyTheIndex();
    await app.stop({ keepDatabase: true });
    app = await startStrapi({ databaseFile: app.databaseFile });
    // The service answers while it builds (or after it built) the index, the same either way.
    expect(await answers()).toEqual(EXPECTED);
    await untilIndexed(4);
    expect(await answers()).toEqual(EXPECTED);
  });
});

(currentStore() === 'sqlite' ? describe : describe.skip)("a build's writes on SQLite", () => {
  it('leaves the write-ahead log checkpointed every 1,000 pages again, as SQLite has it, once the build is done', async () => {
    await emptyTheIndex();
    // What a repair after outside writes runs; it returns once the build is done.
    await app.strapi.plugin('artikel').service('article-index').reconcile();
    expect(await indexedCount()).toBe(4);
    const setting = (await app.strapi.db.connection.raw('PRAGMA wal_autocheckpoint')) as Array<{ wal_autocheckpoint: number }>;
    expect(setting[0].wal_autocheckpoint).toBe(1000);
    expect(await answers()).toEqual(EXPECTED);
  });

  it("does not hold the service when a reader keeps an older snapshot at the build's end: the log is left as it is", async () => {
    // More articles than a build must add before its end checkpoints the log (SETTLE_AFTER), written
    // behind the service as an import would; published in 2000, so no answer above changes.
    const imported = 2_100;
    await app.strapi.db.connection.raw(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${imported})
       INSERT INTO articles (document_id, title, slug, content, reading_time, created_at, updated_at, published_at)
       SELECT 'imported' || i, 'Imported ' || i, 'imported-' || i, 'An imported article.', 1, 946684800000, 946684800000, 946684800000 FROM n`,
    );
    // A reader of the file (a long search on the service's read thread, a backup) in the middle of a
    // read: the log's frames written after its snapshot cannot be dropped until it ends.
    const reader = new Database(app.databaseFile, { readonly: true });
    let longestPauseMs = 0;
    let last = performance.now();
    const pauses = setInterval(() => {
      const now = performance.now();
      longestPauseMs = Math.max(longestPauseMs, now - last);
      last = now;
    }, 10);
    try {
      reader.exec('BEGIN');
      reader.prepare('SELECT count(*) FROM articles').get();
      last = performance.now();
      await app.strapi.plugin('artikel').service('article-index').reconcile();
      // The build's last statements resolve as promises, before any timer: one more turn of timers measures the pause they made.
      await new Promise((resolve) => setTimeout(resolve, 50));
      // The reader still reads its snapshot from before the build, whose frames the log had to keep.
      expect(reader.prepare('SELECT count(*) AS n FROM artikel_search_docs').get()).toEqual({ n: 4 });
    } finally {
      clearInterval(pauses);
      reader.exec('COMMIT');
      reader.close();
    }
    try {
      expect(await indexedCount()).toBe(4 + imported);
      // The build's chunks each hold the thread a few hundred milliseconds at most here; waiting for
      // the reader in SQLite's busy handler held it for the whole busy_timeout, 5 s.
      expect(longestPauseMs).toBeLessThan(2_500);
      const [wait] = (await app.strapi.db.connection.raw('PRAGMA busy_timeout')) as Array<{ timeout: number }>;
      expect(wait.timeout).toBe(5000);
      // A log left larger than journal_size_limit is cut back to it the next time a write starts it over.
      const [limit] = (await app.strapi.db.connection.raw('PRAGMA journal_size_limit')) as Array<{ journal_size_limit: number }>;
      expect(limit.journal_size_limit).toBeGreaterThan(0);
    } finally {
      await app.strapi.db.connection.raw("DELETE FROM articles WHERE document_id LIKE 'imported%'");
      await app.strapi.plugin('artikel').service('article-index').reconcile();
    }
    expect(await indexedCount()).toBe(4);
    expect(await answers()).toEqual(EXPECTED);
  });
});
