import { ARTICLE_UID, createArticle, createCategory, viewsWritten } from '../helpers/fixtures';
import { startStrapi, type TestApp } from '../helpers/strapi';
import { eventually } from '../helpers/eventually';

/**
 * `strapi transfer` into a running service writes with strapi.db.query, not the Document Service:
 * it deletes every row and creates it again, keeping documentIds. The running service notices such
 * writes and, once they are quiet, re-indexes the replaced rows and drops its cached reads and
 * remembered view counts.
 */

const VIEW_COUNT_UID = 'plugin::artikel.view-count';
let app: TestApp;

beforeAll(async () => {
  app = await startStrapi();
});

afterAll(async () => {
  await app.stop();
});

/** Asserts that `read` comes to give `expected` within `timeoutMs`. */
async function expectSettlesAt<T>(read: () => Promise<T>, expected: T, timeoutMs = 15_000): Promise<void> {
  const last = await eventually(read, (value) => JSON.stringify(value) === JSON.stringify(expected), { withinMs: timeoutMs, everyMs: 200 });
  expect(last).toEqual(expected);
}

describe('writes behind the Document Service, as strapi transfer makes them', () => {
  it('re-index the replaced articles and drop cached reads and remembered counts', async () => {
    const category = await createCategory(app.strapi, 'Transfers', 'transfers');
    const documentId = await createArticle(app.strapi, { title: 'Before the transfer', slug: 'moved-article', tags: 'Old', category });
    // Read (and cache) the list, the tag filter and the count before the transfer.
    expect((await app.api().get('/api/artikel?tag=old')).body.data.map((article: { slug: string }) => article.slug)).toEqual([
      'moved-article',
    ]);
    expect((await app.api().get('/api/artikel/moved-article')).body.data.views).toBe(1);
    // The view is in the table before the transfer begins (a view counted in the last ARTIKEL_VIEW_WRITE_MS before it would be added to the transferred count).
    await viewsWritten(app.strapi);

    // What a transfer does: delete the rows, create them again with their documentIds.
    const rows = (await app.strapi.db.query(ARTICLE_UID).findMany({ where: { documentId } })) as Array<Record<string, unknown>>;
    await app.strapi.db.query(ARTICLE_UID).deleteMany({ where: { documentId } });
    for (const row of rows) {
      await app.strapi.db.query(ARTICLE_UID).create({
        data: {
          documentId,
          title: 'After the transfer',
          slug: 'moved-article',
          content: row.content,
          tags: 'New, Transferred',
          publishedAt: row.publishedAt,
        },
      });
    }
    await app.strapi.db.query(VIEW_COUNT_UID).deleteMany({ where: { article_document_id: documentId } });
    await app.strapi.db
      .query(VIEW_COUNT_UID)
      .create({ data: { documentId: 'transferredviewcount0001', article_document_id: documentId, views: 40, publishedAt: new Date() } });

    const slugsOf = async (url: string) => ((await app.api().get(url)).body.data as Array<{ slug: string }>).map((article) => article.slug);
    await expectSettlesAt(() => slugsOf('/api/artikel?tag=transferred'), ['moved-article']);
    expect(await slugsOf('/api/artikel?tag=old')).toEqual([]);
    expect(await slugsOf('/api/artikel?q=after')).toEqual(['moved-article']);
    expect((await app.api().get('/api/artikel')).body.data[0]).toMatchObject({ title: 'After the transfer', views: 40 });
    expect((await app.api().get('/api/artikel/moved-article')).body.data).toMatchObject({ title: 'After the transfer', views: 41 });
  });
});
