import type { Knex } from 'knex';
import { createArticle, storedViews } from '../helpers/fixtures';
import { startStrapi, type TestApp } from '../helpers/strapi';

// Several times what these reads take on a loaded 2-core machine (about 50 ms each).
const READ_DEADLINE_MS = 10_000;

/** The request's answer, or a failure naming what it waited for once the deadline passes. */
async function withinDeadline<T>(what: string, request: PromiseLike<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${READ_DEADLINE_MS} ms`)), READ_DEADLINE_MS);
  });
  try {
    return await Promise.race([request, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Holds a write transaction open (a row changed, not committed) until the returned release is called. */
async function holdWriteTransaction(app: TestApp, slug: string): Promise<{ release: () => Promise<void> }> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let started: () => void = () => undefined;
  const holding = new Promise<void>((resolve) => {
    started = resolve;
  });
  const transaction = (app.strapi.db.connection as Knex).transaction(async (trx) => {
    await trx('articles').where({ slug }).update({ summary: 'Changed by a write that has not committed yet.' });
    started();
    await released;
  });
  await holding;
  return {
    release: async () => {
      release();
      await transaction;
    },
  };
}

describe('article reads while a write holds the database', () => {
  let app: TestApp;
  let readId: string;

  beforeAll(async () => {
    app = await startStrapi({ category: { name: 'Studio', slug: 'studio' } });
    readId = await createArticle(app.strapi, {
      title: 'Window light portraits',
      slug: 'window-light',
      category: app.categoryId,
      tags: 'Light',
    });
    await createArticle(app.strapi, {
      title: 'Rim light on a budget',
      slug: 'rim-light',
      category: app.categoryId,
      tags: 'Light',
      summary: 'As published.',
    });
  });

  afterAll(async () => {
    await app.stop();
  });

  it('answers an article, its view and a search while a write transaction is open, and stores the view', async () => {
    const before = await storedViews(app.strapi, readId);
    const write = await holdWriteTransaction(app, 'rim-light');
    try {
      const article = await withinDeadline('GET /api/artikel/window-light', app.api().get('/api/artikel/window-light'));
      expect(article.status).toBe(200);
      expect(article.body.data.views).toBe(before + 1);
      const search = await withinDeadline('GET /api/artikel?q=light', app.api().get('/api/artikel?q=light'));
      expect(search.status).toBe(200);
      // The uncommitted change is not seen by readers.
      expect(search.body.data.find((summary: { slug: string }) => summary.slug === 'rim-light')?.summary).toBe('As published.');
    } finally {
      await write.release();
    }
    expect(await storedViews(app.strapi, readId)).toBe(before + 1);
  });
});

describe('views counted just before the app stops', () => {
  it('are in the table after a stop, and counted on from there after a restart', async () => {
    // Long enough that no write of the counts comes before the stop.
    let app = await startStrapi({ env: { ARTIKEL_VIEW_WRITE_MS: '60000' } });
    try {
      const id = await createArticle(app.strapi, { title: 'Golden hour on the coast', slug: 'golden-coast' });
      for (let read = 1; read <= 3; read += 1)
        expect((await app.api().get('/api/artikel/golden-coast').expect(200)).body.data.views).toBe(read);
      await app.stop({ keepDatabase: true });
      app = await startStrapi({ databaseFile: app.databaseFile });
      expect(await storedViews(app.strapi, id)).toBe(3);
      expect((await app.api().get('/api/artikel/golden-coast').expect(200)).body.data.views).toBe(4);
    } finally {
      await app.stop();
    }
  });
});
