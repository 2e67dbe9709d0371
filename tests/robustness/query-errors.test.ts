import { startStrapi, type TestApp } from '../helpers/strapi';

let app: TestApp;

beforeAll(async () => {
  app = await startStrapi();
});

afterAll(async () => {
  await app.stop();
});

describe('a failed query', () => {
  it('carries the driver message only: neither its SQL nor its values reach the error a log prints', async () => {
    const failed = await app.strapi.db.connection.raw('SELECT title FROM no_such_table WHERE title = ?', ['rahasia-studio']).then(
      () => null,
      (error: Error) => error,
    );
    expect(failed?.message).toMatch(/no_such_table/);
    expect(`${failed?.message}\n${failed?.stack}`).not.toMatch(/SELECT title|rahasia-studio/i);
  });

  it('carries the driver message only inside a transaction too', async () => {
    const failed = await app.strapi.db
      .transaction(({ trx }) => trx.raw('SELECT missing_column FROM articles WHERE title = ?', ['rahasia-studio']))
      .then(
        () => null,
        (error: Error) => error,
      );
    expect(failed?.message).toMatch(/missing_column/);
    expect(`${failed?.message}\n${failed?.stack}`).not.toMatch(/SELECT missing_column|rahasia-studio/i);
  });
});
