// @ts-check
'use strict';

// The articles of bench/seed.js written into a PostgreSQL database whose schema and categories
// Strapi has just created: the same generated articles, rows and links as on SQLite (see
// seed-layout.js), with PostgreSQL's types. Strapi's datetimes are `timestamp` columns (without time
// zone) here, not epoch milliseconds: the generator's milliseconds go in as Dates, which node-postgres
// writes and reads in local time exactly as it does for Strapi's own writes, so they read back as the
// same instants. Ids come back from RETURNING instead of lastInsertRowid.

const { createArticleGenerator } = require('./article-generator');
const { ARTICLE_COLUMNS, LINK_COLUMNS, articleValues, createLinkOrder, rowPublishedAts } = require('./seed-layout');
const { withPostgres } = require('./store');
const { CATEGORIES } = require('./vocabulary');

const ARTICLES_PER_TRANSACTION = 1000;
// A statement takes at most 65,535 parameters; a little under that leaves room to spare.
const MAX_PARAMETERS = 60000;
const DATETIME_COLUMNS = new Set(['created_at', 'updated_at', 'published_at']);
const DATETIME_INDEXES = ARTICLE_COLUMNS.flatMap((name, index) => (DATETIME_COLUMNS.has(name) ? [index] : []));

/**
 * Fails when Strapi's PostgreSQL tables no longer look like what this seeder writes: a missing
 * column, a required column it leaves empty, or a datetime that is not a timestamp.
 */
async function checkLayout(client) {
  const problems = [];
  const check = async (table, filled) => {
    const { rows } = await client.query(
      'SELECT column_name, is_nullable, column_default, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1',
      [table],
    );
    if (rows.length === 0) {
      problems.push(`table ${table} is missing`);
      return;
    }
    const columns = new Map(rows.map((row) => [row.column_name, row]));
    for (const name of filled) if (!columns.has(name)) problems.push(`${table}.${name} is missing`);
    for (const row of rows) {
      const unfilled = row.column_name !== 'id' && !filled.includes(row.column_name);
      if (unfilled && row.is_nullable === 'NO' && row.column_default === null)
        problems.push(`${table}.${row.column_name} is required but not seeded`);
      if (filled.includes(row.column_name) && DATETIME_COLUMNS.has(row.column_name) && !row.data_type.startsWith('timestamp')) {
        problems.push(`${table}.${row.column_name} is ${row.data_type}, not a timestamp`);
      }
    }
  };
  await check('articles', ARTICLE_COLUMNS);
  await check('articles_category_lnk', LINK_COLUMNS);
  if (problems.length > 0)
    throw new Error(`The Strapi schema on PostgreSQL differs from what bench/seed.js writes: ${problems.join('; ')}`);
}

/** The categories Strapi created, in CATEGORIES order (the generator picks them by index). */
async function seededCategories(client) {
  const categories = [];
  for (const category of CATEGORIES) {
    const { rows } = await client.query('SELECT id, locale FROM categories WHERE slug = $1 ORDER BY id LIMIT 1', [category.slug]);
    if (rows.length === 0) throw new Error(`The category "${category.slug}" created through Strapi is missing`);
    categories.push(rows[0]);
  }
  return categories;
}

/** A multi-row INSERT of `rows` (arrays in `columns` order), split to stay under the parameter limit. */
async function insertRows(client, table, columns, rows, returning = '') {
  const perStatement = Math.floor(MAX_PARAMETERS / columns.length);
  const returned = [];
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    const tuples = chunk.map((_, row) => `(${columns.map((__, column) => `$${row * columns.length + column + 1}`).join(', ')})`);
    const result = await client.query(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}${returning ? ` RETURNING ${returning}` : ''}`,
      chunk.flat(),
    );
    returned.push(...result.rows);
  }
  return returned;
}

const toPostgres = (values) => values.map((value, index) => (DATETIME_INDEXES.includes(index) && value !== null ? new Date(value) : value));
const rowKey = (documentId, published) => `${documentId}:${published ? 'p' : 'd'}`;

/** One transaction's articles: their rows, then each row's category link. */
async function insertBatch(client, articles, categories, order) {
  const rows = articles.flatMap((data) => {
    const category = categories[data.categoryIndex];
    return rowPublishedAts(data).map((publishedAt) => ({ data, publishedAt, category }));
  });
  const inserted = await insertRows(
    client,
    'articles',
    ARTICLE_COLUMNS,
    rows.map((row) => toPostgres(articleValues(row.data, row.publishedAt, row.category.locale))),
    'id, document_id, published_at IS NOT NULL AS published',
  );
  // Ids by document and kind rather than by position: RETURNING promises no order.
  const ids = new Map(inserted.map((row) => [rowKey(row.document_id, row.published), row.id]));
  // Positions are handed out in row order, the same order as on SQLite, so article_ord matches.
  const links = rows.map((row) => [
    ids.get(rowKey(row.data.documentId, row.publishedAt !== null)),
    row.category.id,
    order(row.category.id, row.publishedAt !== null),
  ]);
  await insertRows(client, 'articles_category_lnk', LINK_COLUMNS, links);
}

async function inTransaction(client, fn) {
  await client.query('BEGIN');
  try {
    await fn();
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Inserts `total` generated articles; onProgress(done) after each transaction. Returns the counts.
 * @param {(done: number) => void} [onProgress]
 */
async function insertArticles(store, total, onProgress = () => {}) {
  return withPostgres(store, async (client) => {
    await checkLayout(client);
    const categories = await seededCategories(client);
    const existing = Number((await client.query('SELECT count(*) AS n FROM articles')).rows[0].n);
    if (existing !== 0) throw new Error(`Expected an empty articles table, found ${existing} rows`);

    const generator = createArticleGenerator();
    const order = createLinkOrder();
    let published = 0;
    for (let from = 0; from < total; from += ARTICLES_PER_TRANSACTION) {
      const to = Math.min(total, from + ARTICLES_PER_TRANSACTION);
      // Generated in index order, exactly as on SQLite: the generator's state runs through every article.
      const articles = Array.from({ length: to - from }, (_, offset) => generator.article(from + offset, total));
      await inTransaction(client, () => insertBatch(client, articles, categories, order));
      published += articles.filter((article) => article.publishedAt !== null).length;
      onProgress(to);
    }
    // As on SQLite, only the tables filled here; autovacuum analyzes the plugin's tables once it fills them.
    await client.query('ANALYZE articles, articles_category_lnk');
    const rows = Number((await client.query('SELECT count(*) AS n FROM articles')).rows[0].n);
    const bytes = Number((await client.query('SELECT pg_database_size(current_database()) AS bytes')).rows[0].bytes);
    return { published, drafts: total - published, rows, bytes };
  });
}

module.exports = { checkLayout, insertArticles };
