import { createArticle, createCategory, storedViews, viewsWritten } from '../helpers/fixtures';
import { startStrapi, type TestApp } from '../helpers/strapi';

/**
 * A database from before views were a content type keeps its counts: at start the rows of the old
 * table artikel_views are moved into the view-count type's table once, and the old table dropped.
 */

let app: TestApp;

beforeAll(async () => {
  app = await startStrapi();
});

afterAll(async () => {
  await app.stop();
});

describe('view counts of the old artikel_views table', () => {
  it('are moved into the view-count content type once at start, keeping the larger count, and the old table dropped', async () => {
    const category = await createCategory(app.strapi, 'Legacy', 'legacy');
    const counted = await createArticle(app.strapi, { title: 'Counted before', slug: 'counted-before', category });
    const readSince = await createArticle(app.strapi, { title: 'Read since', slug: 'read-since', category });
    expect((await app.api().get('/api/artikel/read-since')).body.data.views).toBe(1);
    // Written, as it would be before the restart that finds the old table.
    await viewsWritten(app.strapi);

    const knex = app.strapi.db.connection;
    await knex.schema.createTable('artikel_views', (table) => {
      table.string('document_id', 255).primary();
      table.integer('views').notNullable().defaultTo(0);
    });
    await knex('artikel_views').insert([
      { document_id: counted, views: 41 },
      { document_id: readSince, views: 7 },
      { document_id: 'deletedarticle0000000001', views: 3 },
    ]);

    // Two restarts: the first moves the counts, the second finds nothing to move.
    for (let restart = 1; restart <= 2; restart += 1) {
      await app.stop({ keepDatabase: true });
      app = await startStrapi({ databaseFile: app.databaseFile });
    }

    expect(await app.strapi.db.connection.schema.hasTable('artikel_views')).toBe(false);
    expect(await storedViews(app.strapi, counted)).toBe(41);
    expect(await storedViews(app.strapi, readSince)).toBe(7);
    const rows = (await app.strapi.documents('plugin::artikel.view-count').findMany({ sort: 'views:desc' })) as unknown as Array<
      Record<string, unknown>
    >;
    expect(rows.map((row) => [row.article_document_id, row.views])).toEqual([
      [counted, 41],
      [readSince, 7],
      ['deletedarticle0000000001', 3],
    ]);
    // Strapi's own fields are filled as the Document Service fills them.
    for (const row of rows) {
      expect(row.documentId).toMatch(/^[a-z][a-z0-9]{23}$/);
      for (const field of ['createdAt', 'updatedAt', 'publishedAt']) expect(Number.isNaN(Date.parse(String(row[field])))).toBe(false);
    }
    // The next read counts on from the moved count.
    expect((await app.api().get('/api/artikel/counted-before')).body.data.views).toBe(42);
  });
});
