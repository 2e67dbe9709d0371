// @ts-check
'use strict';

const crypto = require('node:crypto');
const { tagKey } = require('./plugin').tags;

// Every read of /api/artikel as prepared SQLite statements, one statement per request where the
// data allows it: the list's total rides along the page as an uncorrelated subquery, the view
// upsert finds the article by slug itself, and related articles come with their summary columns.

const ARTICLE_UID = 'api::article.article';
const RELATED_COUNT = 4;
const RELATED_CANDIDATES_PER_TAG = 50;
const LATEST_COUNT = 5;

const SUMMARY_COLUMNS = `a.id, a.document_id, a.title, a.slug, a.summary, a.content, a.tags, a.cover_image_url, a.author,
  a.published_at, a.updated_at, a.created_at, c.name AS category_name, c.slug AS category_slug, v.views AS views,
  f.url AS cover_media_url`;

const FROM_PUBLISHED = `FROM articles a
  LEFT JOIN articles_category_lnk l ON l.article_id = a.id
  LEFT JOIN categories c ON c.id = l.category_id
  LEFT JOIN artikel_view_counts v ON v.article_document_id = a.document_id
  LEFT JOIN files_related_mph fr ON fr.related_id = a.id AND fr.related_type = '${ARTICLE_UID}' AND fr.field = 'cover'
  LEFT JOIN files f ON f.id = fr.file_id`;

const NEWEST_FIRST = 'ORDER BY a.published_at DESC, a.created_at DESC, a.document_id DESC';

const escapeLike = (text) => text.replace(/[\\%_]/g, (character) => `\\${character}`);
const ftsPhrase = (word) => `"${word.replace(/"/g, '""')}"`;

/** A documentId in the form Strapi gives one (as the plugin's repositories/view-counts.ts). */
function newDocumentId() {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = crypto.randomBytes(24);
  let id = alphabet[bytes[0] % 26];
  for (let index = 1; index < 24; index += 1) id += alphabet[bytes[index] % 36];
  return id;
}

function tableExists(db, name) {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

function createQueries(db, { useSearchIndex = true } = {}) {
  if (!tableExists(db, 'artikel_tags') || !tableExists(db, 'artikel_view_counts')) {
    throw new Error('The plugin tables artikel_tags/artikel_view_counts are missing: start the app once on this database first.');
  }
  // The trigram index only answers words of 3 or more characters; shorter words use LIKE.
  const hasSearchIndex = useSearchIndex && tableExists(db, 'artikel_search') && tableExists(db, 'artikel_search_docs');
  const statements = new Map();
  const prepared = (sql) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };

  /**
   * WHERE clauses and parameters for the list's filters; the SQL text depends only on their shape.
   * `forPage` writes the document filters as `+a.document_id IN (...)`, which keeps SQLite from
   * driving the page query by those sets: it then walks the published_at index newest first and
   * stops after one page, instead of sorting every match with its 3 KB of content.
   */
  const filterClauses = ({ words, kategori, tag }, forPage) => {
    const documentId = forPage ? '+a.document_id' : 'a.document_id';
    const clauses = ['a.published_at IS NOT NULL'];
    const params = [];
    const indexed = hasSearchIndex ? words.filter((word) => [...word].length >= 3) : [];
    const scanned = words.filter((word) => !indexed.includes(word));
    if (indexed.length > 0) {
      clauses.push(
        `${documentId} IN (SELECT d.document_id FROM artikel_search s JOIN artikel_search_docs d ON d.id = s.rowid WHERE artikel_search MATCH ?)`,
      );
      params.push(indexed.map(ftsPhrase).join(' AND '));
    }
    for (const word of scanned) {
      const pattern = `%${escapeLike(word.toLowerCase())}%`;
      clauses.push("(LOWER(a.title) LIKE ? ESCAPE '\\' OR LOWER(a.content) LIKE ? ESCAPE '\\' OR LOWER(a.tags) LIKE ? ESCAPE '\\')");
      params.push(pattern, pattern, pattern);
    }
    if (kategori !== null) {
      clauses.push('(LOWER(c.name) = ? OR LOWER(c.slug) = ?)');
      params.push(kategori.toLowerCase(), kategori.toLowerCase());
    }
    if (tag !== null) {
      clauses.push(`${documentId} IN (SELECT t.document_id FROM artikel_tags t WHERE t.tag = ?)`);
      params.push(tagKey(tag));
    }
    return { where: clauses.join(' AND '), params };
  };

  const categoryJoin = `FROM articles a
    LEFT JOIN articles_category_lnk l ON l.article_id = a.id
    LEFT JOIN categories c ON c.id = l.category_id`;

  // The plugin's row of the view-count content type, with Strapi's columns filled as the plugin
  // fills them on SQLite (a documentId, and datetimes as epoch milliseconds).
  const upsertViewStatement =
    db.prepare(`INSERT INTO artikel_view_counts (document_id, article_document_id, views, created_at, updated_at, published_at)
    SELECT ?, a.document_id, 1, ?, ?, ? FROM articles a WHERE a.slug = ? AND a.published_at IS NOT NULL LIMIT 1
    ON CONFLICT (article_document_id) DO UPDATE SET views = artikel_view_counts.views + 1, updated_at = excluded.updated_at
    RETURNING article_document_id AS document_id, views`);
  const upsertView = {
    get(slug) {
      const now = Date.now();
      return upsertViewStatement.get(newDocumentId(), now, now, now, slug);
    },
  };
  const articleByDocument = db.prepare(`SELECT ${SUMMARY_COLUMNS}, a.meta_title, a.meta_description, a.meta_keywords,
      l.category_id,
      (SELECT json_group_array(json_object('url', g.url, 'alt', g.alternative_text, 'caption', g.caption, 'width', g.width, 'height', g.height))
         FROM (SELECT gf.url, gf.alternative_text, gf.caption, gf.width, gf.height
                 FROM files_related_mph gr JOIN files gf ON gf.id = gr.file_id
                WHERE gr.related_id = a.id AND gr.related_type = '${ARTICLE_UID}' AND gr.field = 'gallery'
                ORDER BY gr."order") g) AS gallery
    ${FROM_PUBLISHED} WHERE a.document_id = ? AND a.published_at IS NOT NULL LIMIT 1`);
  // The candidates are the newest RELATED_CANDIDATES_PER_TAG articles of each tag, as in the plugin.
  const relatedBySharedTags = (tagCount) =>
    prepared(`SELECT ${SUMMARY_COLUMNS} ${FROM_PUBLISHED}
    JOIN (SELECT document_id, count(*) AS shared FROM artikel_tags
           WHERE tag IN (SELECT value FROM json_each(?)) AND document_id IN (${Array.from({ length: tagCount }, () => `SELECT * FROM (SELECT document_id FROM artikel_tags WHERE tag = ? AND document_id <> ? ORDER BY published_at DESC LIMIT ${RELATED_CANDIDATES_PER_TAG})`).join(' UNION ALL ')})
           GROUP BY document_id) s
      ON s.document_id = a.document_id
    WHERE a.published_at IS NOT NULL
    ORDER BY s.shared DESC, (l.category_id IS ?) DESC, a.published_at DESC, a.created_at DESC
    LIMIT ${RELATED_COUNT}`);
  const relatedSameCategory = db.prepare(`SELECT ${SUMMARY_COLUMNS} ${FROM_PUBLISHED}
    WHERE a.published_at IS NOT NULL AND l.category_id = ? AND a.document_id NOT IN (SELECT value FROM json_each(?))
    ${NEWEST_FIRST} LIMIT ?`);
  const relatedAny = db.prepare(`SELECT ${SUMMARY_COLUMNS} ${FROM_PUBLISHED}
    WHERE a.published_at IS NOT NULL AND a.document_id NOT IN (SELECT value FROM json_each(?))
    ${NEWEST_FIRST} LIMIT ?`);
  const latest = db.prepare(
    `SELECT ${SUMMARY_COLUMNS} ${FROM_PUBLISHED} WHERE a.published_at IS NOT NULL ${NEWEST_FIRST} LIMIT ${LATEST_COUNT}`,
  );
  // Counted from the published_at index (which holds the row ids), never from the article rows:
  // published_at sits after the 3 KB content column, so reading it from a row walks overflow pages.
  const categories = db.prepare(`SELECT c.name, c.slug, coalesce(n.article_count, 0) AS article_count
    FROM categories c
    LEFT JOIN (SELECT l.category_id, count(*) AS article_count
                 FROM (SELECT id FROM articles WHERE published_at IS NOT NULL ORDER BY published_at) a
                 CROSS JOIN articles_category_lnk l ON l.article_id = a.id
                GROUP BY l.category_id) n ON n.category_id = c.id
    ORDER BY LOWER(c.name)`);

  return {
    hasSearchIndex,

    /** One page and the total; a second statement only for a page past the end. */
    list(filters) {
      const { where, params } = filterClauses(filters, false);
      const page = filterClauses(filters, true);
      // The category joins only matter to the count when the category filters.
      const countSql = `SELECT count(*) ${filters.kategori === null ? 'FROM articles a' : categoryJoin} WHERE ${where}`;
      const rows = prepared(
        `SELECT ${SUMMARY_COLUMNS}, (${countSql}) AS total ${FROM_PUBLISHED} WHERE ${page.where} ${NEWEST_FIRST} LIMIT ? OFFSET ?`,
      ).all(...params, ...page.params, filters.limit, (filters.page - 1) * filters.limit);
      const total =
        rows.length > 0
          ? rows[0].total
          : prepared(countSql)
              .pluck()
              .get(...params);
      return { rows, total };
    },

    latest: () => latest.all(),
    categories: () => categories.all(),

    /** Counts the view and reads the article; undefined (and no count) for an unknown slug. */
    readBySlug(slug) {
      const counted = upsertView.get(slug);
      if (!counted) return undefined;
      const row = articleByDocument.get(counted.document_id);
      return row && { row, views: counted.views };
    },

    /** Ranked like the plugin: most shared tags, then same category, then newest; filled by category, then by date. */
    related(row, tagKeys) {
      const chosen =
        tagKeys.length > 0
          ? relatedBySharedTags(tagKeys.length).all(
              JSON.stringify(tagKeys),
              ...tagKeys.flatMap((key) => [key, row.document_id]),
              row.category_id,
            )
          : [];
      const excluded = () => JSON.stringify([row.document_id, ...chosen.map((item) => item.document_id)]);
      if (chosen.length < RELATED_COUNT && row.category_id !== null)
        chosen.push(...relatedSameCategory.all(row.category_id, excluded(), RELATED_COUNT - chosen.length));
      if (chosen.length < RELATED_COUNT) chosen.push(...relatedAny.all(excluded(), RELATED_COUNT - chosen.length));
      return chosen;
    },
  };
}

module.exports = { createQueries, tableExists };
