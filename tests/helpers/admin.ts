import type supertest from 'supertest';
import type { TestApp } from './strapi';

export const ARTICLES_PATH = '/content-manager/collection-types/api::article.article';
export const CATEGORIES_PATH = '/content-manager/collection-types/api::category.category';

export interface Editor {
  /** A request of the Content Manager, signed with the editor's admin JWT. */
  get: (path: string) => supertest.Test;
  post: (path: string, body?: object) => supertest.Test;
  put: (path: string, body: object) => supertest.Test;
  del: (path: string) => supertest.Test;
  /** Signs any request as the editor (an upload with attached files, for one). */
  signed: (test: supertest.Test) => supertest.Test;
}

let registered = 0;

/**
 * The first administrator of a fresh app, registered through the admin's own route as the
 * registration form does; each app has its own database, so each test file registers one.
 */
export async function registerEditor(app: TestApp): Promise<Editor> {
  registered += 1;
  const response = await app
    .api()
    .post('/admin/register-admin')
    .send({ email: `editor${registered}@studio.example`, firstname: 'Eda', lastname: 'Editor', password: 'Editor-Passw0rd' })
    .expect(200);
  const jwt = (response.body as { data: { token: string } }).data.token;
  const auth = (test: supertest.Test) => test.set('Authorization', `Bearer ${jwt}`);
  return {
    get: (path) => auth(app.api().get(path)),
    post: (path, body = {}) => auth(app.api().post(path).send(body)),
    put: (path, body) => auth(app.api().put(path).send(body)),
    del: (path) => auth(app.api().delete(path)),
    signed: auth,
  };
}

/** The relation value the Content Manager's relation picker sends for one chosen entry. */
export function connect(documentId: string) {
  return { connect: [{ documentId }], disconnect: [] };
}

/** Milliseconds the request took, printed for the closing note; never asserted (see bench/). */
export async function timed<T>(label: string, request: () => Promise<T>): Promise<T> {
  const started = process.hrtime.bigint();
  const result = await request();
  process.stdout.write(`[admin] ${label}: ${Number(process.hrtime.bigint() - started) / 1e6} ms\n`);
  return result;
}

let titles = 0;

/** A title no other test in the run uses, so each test reads only what it wrote. */
export function uniqueTitle(words: string): string {
  titles += 1;
  return `${words} ${titles}`;
}
