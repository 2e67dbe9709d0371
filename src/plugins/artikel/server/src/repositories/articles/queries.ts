import { ARTICLE_UID, PHOTO_FILE_FIELDS, PUBLISHED_ARTICLE_IDS_INDEX, TABLES } from '../../constants';
import { limitSql } from '../../infrastructure/row-limits';

// The columns of SummaryRow, as summaryRows selects them.
export const SUMMARY_COLUMNS = [
  'a.document_id',
  'a.title',
  'a.slug',
  'a.summary',
  'a.content',
  'a.reading_time',
  'a.tags',
  'a.cover_image_url',
  'a.hide_exif',
  'a.author',
  'a.published_at',
  'a.updated_at',
  'a.created_at',
  'c.name AS category_name',
  'c.slug AS category_slug',
  'v.views AS views',
  'f.url AS cover_media_url',
  'f.width AS cover_width',
  'f.height AS cover_height',
  'f.mime AS cover_mime',
  'f.alternative_text AS cover_alt',
  'f.caption AS cover_caption',
  'f.formats AS cover_formats',
  `f.${PHOTO_FILE_FIELDS.placeholder} AS cover_placeholder`,
  `f.${PHOTO_FILE_FIELDS.color} AS cover_color`,
  `f.${PHOTO_FILE_FIELDS.exif} AS cover_exif`,
];

// How the summary reads reach each article row's (alias `a`) category link (`l`) and category
// (`c`), uploaded cover (its link `fr`, its file `f`) and view count (`v`): SQL written once, which
// knex passes on as it is (see joinRaw) and the fixed reads below run as it is (see readRows).
export const CATEGORY_JOINS = `LEFT JOIN ${TABLES.articleCategoryLinks} l ON l.article_id = a.id LEFT JOIN ${TABLES.categories} c ON c.id = l.category_id`;
export const COVER_JOINS = `LEFT JOIN ${TABLES.mediaLinks} fr ON fr.related_id = a.id AND fr.related_type = '${ARTICLE_UID}' AND fr.field = 'cover' LEFT JOIN ${TABLES.files} f ON f.id = fr.file_id`;
export const SUMMARY_JOINS = `${CATEGORY_JOINS} ${COVER_JOINS} LEFT JOIN ${TABLES.viewCounts} v ON v.article_document_id = a.document_id`;
/**
 * SQLite: the article rows (alias `a`) read through the index of published ids, for a query that
 * picks rows by id and asks `a.published_at IS NOT NULL`: a row's published_at lies past its text,
 * in its overflow pages, so the index answers it without reading the row. INDEXED BY: the planner
 * takes the index by itself only once ANALYZE has run.
 */
export const ARTICLES_BY_PUBLISHED_ID = `${TABLES.articles} a INDEXED BY ${PUBLISHED_ARTICLE_IDS_INDEX}`;

// The list order: newest published first, then newest created, then by document id, which keeps
// its place when an edit republishes the article as a new row (see domain/list-cursor.ts). The
// index articles_published_at_idx holds these three columns in this order.
export const NEWEST_FIRST = 'a.published_at DESC, a.created_at DESC, a.document_id DESC';
const OLDEST_FIRST = 'a.published_at ASC, a.created_at ASC, a.document_id ASC';
const POSITION = '(a.published_at, a.created_at, a.document_id)';
/** The articles after a position in the newest-first order (older), nearest first; and before it (newer), nearest first. */
export const PAST_POSITION = {
  after: { where: `${POSITION} < (?, ?, ?)`, order: NEWEST_FIRST },
  before: { where: `${POSITION} > (?, ?, ?)`, order: OLDEST_FIRST },
};

/** The summary columns and `extra` columns of `a`, of the published article rows (add AND ... to narrow them). */
export const publishedSummaries = (extra: string[] = []): string =>
  `SELECT ${[...SUMMARY_COLUMNS, ...extra].join(', ')} FROM ${TABLES.articles} a ${SUMMARY_JOINS} WHERE a.published_at IS NOT NULL`;

// The reads whose SQL never changes (but for a page's numbers), run by readRows.
/** The summaries of the published rows (add AND ... to narrow them), written out once. */
export const PUBLISHED_SUMMARIES = publishedSummaries();
/** The row and document ids of the published rows (add AND ... to narrow them): a page's, read before their summaries on PostgreSQL. */
export const PUBLISHED_IDS = `SELECT a.id, a.document_id FROM ${TABLES.articles} a WHERE a.published_at IS NOT NULL`;
/**
 * PostgreSQL: the summaries of the published rows with these ids, and of these documents' published
 * rows (one array binding each), for readFixedRows: the same text whatever the page.
 */
export const SUMMARIES_OF_IDS = `${publishedSummaries(['a.id'])} AND a.id = ANY(?::int[])`;
export const SUMMARIES_OF_DOCUMENTS = `${publishedSummaries()} AND a.document_id = ANY(?::text[])`;
const DETAIL_COLUMNS = ['a.id', 'a.meta_title', 'a.meta_description', 'a.meta_keywords', 'l.category_id'];
export const DETAIL_BY_SLUG = `${publishedSummaries(DETAIL_COLUMNS)} AND a.slug = ? ${limitSql(1)}`;
/** A document's draft or published version with its detail columns and its schedule (a draft's). */
const detailOfDocument = (published: boolean): string =>
  `SELECT ${[...SUMMARY_COLUMNS, ...DETAIL_COLUMNS, 'a.publish_at'].join(', ')} FROM ${TABLES.articles} a ${SUMMARY_JOINS}
  WHERE a.document_id = ? AND a.published_at IS ${published ? 'NOT NULL' : 'NULL'} ${limitSql(1)}`;
export const DETAIL_OF_DOCUMENT = { published: detailOfDocument(true), draft: detailOfDocument(false) };
export const PUBLISHED_COUNT = `SELECT count(*) AS total FROM ${TABLES.articles} a WHERE a.published_at IS NOT NULL`;
export const GALLERY_OF = `SELECT f.url, f.alternative_text, f.caption, f.width, f.height, f.mime, f.formats,
    f.${PHOTO_FILE_FIELDS.placeholder} AS placeholder, f.${PHOTO_FILE_FIELDS.color} AS color, f.${PHOTO_FILE_FIELDS.exif} AS exif
  FROM ${TABLES.mediaLinks} fr JOIN ${TABLES.files} f ON f.id = fr.file_id
  WHERE fr.related_type = '${ARTICLE_UID}' AND fr.field = 'gallery' AND fr.related_id = ? ORDER BY fr."order"`;

// The list sorted by views, without other filters, in two parts: the read articles, most read first
// (a walk of VIEW_COUNT_VIEWS_INDEX), then those never read, newest first (a walk of the
// published_at index); ties newest first. Document ids only: the page's summaries are read by id.
// SQLite's CROSS JOIN keeps the counts as the outer loop: without statistics its planner walked
// every published article instead (41 instead of 0.02 ms at 100,000). PostgreSQL plans either well.
export const readMostIds = (sqlite: boolean): string =>
  `SELECT a.document_id FROM ${TABLES.viewCounts} v ${sqlite ? 'CROSS JOIN' : 'JOIN'} ${TABLES.articles} a ON a.document_id = v.article_document_id
  WHERE v.views > 0 AND a.published_at IS NOT NULL ORDER BY v.views DESC, ${NEWEST_FIRST}`;
export const READ_COUNT = `SELECT count(*) AS total FROM ${TABLES.viewCounts} v JOIN ${TABLES.articles} a ON a.document_id = v.article_document_id
  WHERE v.views > 0 AND a.published_at IS NOT NULL`;
export const UNREAD_IDS = `SELECT a.document_id FROM ${TABLES.articles} a WHERE a.published_at IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM ${TABLES.viewCounts} v WHERE v.article_document_id = a.document_id AND v.views > 0) ORDER BY ${NEWEST_FIRST}`;
