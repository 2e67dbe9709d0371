// @ts-check
'use strict';

// The raw limit: the seven reads of /api/artikel served by node:http and better-sqlite3 alone, on
// the same database file, with the same JSON. No framework, no query builder, no middleware: what
// is left is the SQL and the JSON, so the gap between this and the plugin is what Strapi costs.
//
//   DATABASE_FILENAME=... PORT=... [RAW_SEARCH=like] node bench/raw-server.js
//
// Search uses the plugin's FTS5 trigram index when the file has one, the LIKE scan otherwise or
// with RAW_SEARCH=like (the benchmark's rawlike column: what a search costs without an index).

const http = require('node:http');
const Database = require('better-sqlite3');
const { createQueries } = require('./lib/raw-queries');
const { createRecords, parseTags } = require('./lib/raw-records');
const { tagKey } = require('./lib/plugin').tags;

const LIST_DEFAULT_LIMIT = 10;
const LIST_MAX_LIMIT = 50;
const PREFIX = '/api/artikel';
const WHOLE_NUMBER = /^[0-9]+$/;

/** A whole number from the environment, or the fallback when it is unset. */
function envInt(name, fallback) {
  const value = process.env[name];
  return value === undefined || value === '' ? fallback : Number.parseInt(value, 10);
}

function openDatabase(file) {
  const db = new Database(file, { fileMustExist: true });
  // The app's settings (config/database.ts), from the same variables with the same defaults, so both
  // read the file the same way: a 16 MB page cache and no memory map unless the run sets them.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma(`cache_size = ${-1024 * envInt('DATABASE_SQLITE_CACHE_MB', 16)}`);
  db.pragma('temp_store = MEMORY');
  db.pragma(`mmap_size = ${envInt('DATABASE_SQLITE_MMAP_MB', 0) * 1024 * 1024}`);
  return db;
}

class HttpError extends Error {
  constructor(status, name, message, details = {}) {
    super(message);
    this.status = status;
    this.name = name;
    this.details = details;
  }
}

const validationError = (path, message) =>
  new HttpError(400, 'ValidationError', message, { errors: [{ path: [path], message, name: 'ValidationError' }] });

function positiveWhole(params, name, fallback) {
  const value = params.get(name);
  if (value === null) return fallback;
  if (!WHOLE_NUMBER.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value)))
    throw validationError(name, `${name} must be a whole number of at least 1`);
  return Number(value);
}

function nonBlank(value) {
  const trimmed = (value ?? '').trim();
  return trimmed === '' ? null : trimmed;
}

function listFilters(params) {
  return {
    words: (params.get('q') ?? '')
      .trim()
      .split(/\s+/)
      .filter((word) => word !== ''),
    kategori: nonBlank(params.get('kategori')),
    tag: nonBlank(params.get('tag')),
    limit: Math.min(positiveWhole(params, 'limit', LIST_DEFAULT_LIMIT), LIST_MAX_LIMIT),
    page: positiveWhole(params, 'page', 1),
  };
}

function noParameters(params) {
  for (const name of params.keys()) throw validationError(name, `${name} is not allowed here`);
}

function createHandler({ queries, records }) {
  const routes = {
    list(params) {
      const filters = listFilters(params);
      const { rows, total } = queries.list(filters);
      return {
        data: rows.map(records.summary),
        meta: { pagination: { page: filters.page, limit: filters.limit, total, page_count: Math.ceil(total / filters.limit) } },
      };
    },
    categories(params) {
      noParameters(params);
      return { data: queries.categories().map((row) => ({ name: row.name, slug: row.slug ?? '', article_count: row.article_count })) };
    },
    latest(params) {
      noParameters(params);
      return { data: queries.latest().map(records.summary) };
    },
    article(params, slug) {
      noParameters(params);
      const found = queries.readBySlug(slug);
      if (!found) throw new HttpError(404, 'NotFoundError', `No published article has the slug "${slug}"`);
      const tagKeys = parseTags(found.row.tags).map(tagKey);
      const related = queries.related(found.row, tagKeys).map(records.summary);
      return { data: records.full(found.row, found.views, related) };
    },
  };

  const route = (method, pathname) => {
    if (method !== 'GET') return null;
    if (pathname === PREFIX || pathname === `${PREFIX}/`) return (params) => routes.list(params);
    if (!pathname.startsWith(`${PREFIX}/`)) return null;
    const rest = pathname.slice(PREFIX.length + 1);
    if (rest === 'categories') return (params) => routes.categories(params);
    if (rest === 'latest') return (params) => routes.latest(params);
    if (rest === '' || rest.includes('/')) return null;
    return (params) => routes.article(params, decodeURIComponent(rest));
  };

  const send = (response, status, body) => {
    const text = JSON.stringify(body);
    response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
    response.end(text);
  };

  return (request, response) => {
    const queryAt = request.url.indexOf('?');
    const pathname = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
    const params = new URLSearchParams(queryAt === -1 ? '' : request.url.slice(queryAt + 1));
    try {
      const handler = route(request.method, pathname);
      if (!handler) throw new HttpError(404, 'NotFoundError', 'Not Found');
      send(response, 200, handler(params));
    } catch (error) {
      if (error instanceof HttpError) {
        send(response, error.status, {
          data: null,
          error: { status: error.status, name: error.name, message: error.message, details: error.details },
        });
      } else if (error instanceof URIError) {
        send(response, 400, { data: null, error: { status: 400, name: 'BadRequestError', message: 'Malformed path', details: {} } });
      } else {
        console.error(error);
        send(response, 500, {
          data: null,
          error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error', details: {} },
        });
      }
    }
  };
}

function main() {
  const file = process.env.DATABASE_FILENAME;
  if (!file) throw new Error('DATABASE_FILENAME is required');
  const db = openDatabase(file);
  const queries = createQueries(db, { useSearchIndex: process.env.RAW_SEARCH !== 'like' });
  const records = createRecords({ studioName: process.env.STUDIO_NAME?.trim() || 'Studio', mediaBaseUrl: process.env.PUBLIC_URL ?? '' });
  const server = http.createServer(createHandler({ queries, records }));
  server.keepAliveTimeout = 65000;
  const port = Number(process.env.PORT ?? 1337);
  const host = process.env.HOST ?? '127.0.0.1';
  server.listen(port, host, () => {
    console.log(`raw server on http://${host}:${port}${PREFIX} (search: ${queries.hasSearchIndex ? 'FTS5 index' : 'LIKE scan'})`);
  });
  const stop = () =>
    server.close(() => {
      db.close();
      process.exit(0);
    });
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (require.main === module) main();

module.exports = { createHandler, openDatabase };
