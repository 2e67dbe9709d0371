// @ts-check
'use strict';

// How Strapi 5 stores the Article and Category content types in SQLite, as observed by creating
// documents through the Document Service (see bench/README.md): datetimes are epoch milliseconds,
// locale is NULL without i18n, a published article is a draft row plus a published row with the
// same document_id, and each of those rows has its own category link row. seed-postgres.js writes
// the same rows on PostgreSQL with the columns, values and link order defined here.

const ARTICLE_COLUMNS = [
  'document_id',
  'title',
  'slug',
  'summary',
  'content',
  'tags',
  'cover_image_url',
  'author',
  'meta_title',
  'meta_description',
  'meta_keywords',
  'reading_time',
  'created_at',
  'updated_at',
  'published_at',
  'created_by_id',
  'updated_by_id',
  'locale',
];
const LINK_COLUMNS = ['article_id', 'category_id', 'article_ord'];

/**
 * Fails when Strapi's tables no longer look like what this seeder writes (a new required field, a
 * renamed link table), instead of silently producing a database the app reads differently.
 */
function checkLayout(db) {
  const problems = [];
  const check = (table, filled) => {
    const columns = db.prepare(`PRAGMA table_info(${table})`).all();
    if (columns.length === 0) {
      problems.push(`table ${table} is missing`);
      return;
    }
    const names = new Set(columns.map((column) => column.name));
    for (const name of filled) if (!names.has(name)) problems.push(`${table}.${name} is missing`);
    for (const column of columns) {
      const unfilled = column.name !== 'id' && !filled.includes(column.name);
      if (unfilled && column.notnull && column.dflt_value === null) problems.push(`${table}.${column.name} is required but not seeded`);
    }
  };
  check('articles', ARTICLE_COLUMNS);
  check('articles_category_lnk', LINK_COLUMNS);
  if (problems.length > 0) throw new Error(`The Strapi schema differs from what bench/seed.js writes: ${problems.join('; ')}`);
}

/**
 * article_ord is the row's position in its category's "articles" list; Strapi counts draft rows
 * and published rows separately. Returns the next position for a row.
 */
function createLinkOrder() {
  const nextOrder = new Map();
  return (categoryId, published) => {
    const key = `${categoryId}:${published ? 'p' : 'd'}`;
    const value = (nextOrder.get(key) ?? 0) + 1;
    nextOrder.set(key, value);
    return value;
  };
}

/** One article's rows in Strapi's order: its draft row, and its published row when it is published. */
const rowPublishedAts = (data) => (data.publishedAt === null ? [null] : [null, data.publishedAt]);

/** One row's values in ARTICLE_COLUMNS order; datetimes as the generator gives them (epoch ms). */
function articleValues(data, publishedAt, locale) {
  return [
    data.documentId,
    data.title,
    data.slug,
    data.summary,
    data.content,
    data.tags,
    data.coverImageUrl,
    data.author,
    data.metaTitle,
    data.metaDescription,
    data.metaKeywords,
    data.readingTime,
    data.createdAt,
    data.updatedAt,
    publishedAt,
    null,
    null,
    locale,
  ];
}

function prepareInserts(db) {
  const article = db.prepare(`INSERT INTO articles (${ARTICLE_COLUMNS.join(', ')}) VALUES (${ARTICLE_COLUMNS.map(() => '?').join(', ')})`);
  const link = db.prepare(`INSERT INTO articles_category_lnk (${LINK_COLUMNS.join(', ')}) VALUES (?, ?, ?)`);
  const order = createLinkOrder();

  /** One article: its draft row and its published row, each with its category link. */
  return (data, categoryId, locale) => {
    for (const publishedAt of rowPublishedAts(data)) {
      const { lastInsertRowid } = article.run(...articleValues(data, publishedAt, locale));
      link.run(lastInsertRowid, categoryId, order(categoryId, publishedAt !== null));
    }
  };
}

module.exports = { ARTICLE_COLUMNS, LINK_COLUMNS, articleValues, checkLayout, createLinkOrder, prepareInserts, rowPublishedAts };
