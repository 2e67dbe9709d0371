import type { Core } from '@strapi/strapi';
import { ARTICLE_UID, PUBLISHED_ARTICLE_IDS_INDEX, RELATED_CANDIDATES_PER_TAG, TABLES } from '../constants';
import type { ArticleDetailRecord, ArticleRecord } from '../presenters/article-records';
import { toEpochMs, toIsoString } from '../utils/dates';
import type { RelatedRank } from '../domain/related-ranking';
import type { ArticlePlace } from '../domain/written-scope';
import type { MediaRecord } from '../presenters/photos';
import { parseTags, tagKey } from '../utils/tags';
import { isSqlite } from '../infrastructure/database-dialect';
import { searchableText } from '../utils/search-words';
import { indexComplete } from '../infrastructure/index-state';
import { searchIndex } from './search';
import { hasTagByScan } from './tags';
import { longReadRows, readDatabase, readRows, type Knex, type RawSql } from '../infrastructure/transactions';
import { firstRow, limitRows, limitSql } from '../infrastructure/row-limits';

type QueryBuilder = ReturnType<Knex>;

/** What a list may be narrowed by: words of q, a category (name or slug, any case), a tag key. */
export interface ArticleFilters {
  words: string[];
  category: string | null;
  tagKey: string | null;
}

/** What a sitemap lists of an article: its page, its last change and its photos. */
export interface SitemapRecord {
  slug: string;
  updatedAt: string;
  coverImageUrl: string | null;
  coverMediaUrl: string | null;
  galleryUrls: string[];
}

/** A published article's row, where it stands among the published, its times, and its text as searches find it (see searchableText). */
export interface PublishedVersion extends ArticlePlace {
  rowId: number;
  publishedAt: number;
  createdAt: number;
  searchableText: string;
}

/** No narrowing: every published article. */
export const EVERY_ARTICLE: ArticleFilters = { words: [], category: null, tagKey: null };

export interface CategoryCountRecord {
  name: string;
  slug: string;
  articleCount: number;
}

interface SummaryRow {
  document_id: string;
  title: string | null;
  slug: string | null;
  summary: string | null;
  content: string | null;
  reading_time: number | string | null;
  tags: string | null;
  cover_image_url: string | null;
  cover_media_url: string | null;
  cover_width: number | string | null;
  cover_height: number | string | null;
  cover_mime: string | null;
  cover_alt: string | null;
  cover_caption: string | null;
  cover_formats: unknown;
  author: string | null;
  views: number | string | null;
  category_name: string | null;
  category_slug: string | null;
  published_at: unknown;
  updated_at: unknown;
  created_at: unknown;
}

function parseSummaryRow(row: SummaryRow): ArticleRecord {
  return {
    documentId: row.document_id,
    title: row.title ?? '',
    slug: row.slug ?? '',
    summary: row.summary,
    content: row.content ?? '',
    readingTime: row.reading_time === null ? null : Number(row.reading_time),
    tags: row.tags,
    coverImageUrl: row.cover_image_url,
    coverMedia:
      row.cover_media_url === null
        ? null
        : {
            url: row.cover_media_url,
            width: row.cover_width === null ? null : Number(row.cover_width),
            height: row.cover_height === null ? null : Number(row.cover_height),
            mime: row.cover_mime,
            alternativeText: row.cover_alt,
            caption: row.cover_caption,
            formats: row.cover_formats,
          },
    author: row.author,
    views: Number(row.views ?? 0),
    category: row.category_name === null ? null : { name: row.category_name, slug: row.category_slug ?? '' },
    publishedAt: toIsoString(row.published_at),
    updatedAt: toIsoString(row.updated_at) ?? '',
    createdAt: toIsoString(row.created_at) ?? '',
  };
}

interface DetailRow extends SummaryRow {
  id: number | string;
  meta_title: string | null;
  meta_description: string | null;
  meta_keywords: string | null;
  category_id: number | string | null;
}

interface GalleryRow {
  url: string;
  alternative_text: string | null;
  caption: string | null;
  width: number | string | null;
  height: number | string | null;
  mime: string | null;
  formats: unknown;
}

function parseGalleryRow(row: GalleryRow): MediaRecord {
  return {
    url: row.url,
    alternativeText: row.alternative_text,
    caption: row.caption,
    width: row.width === null ? null : Number(row.width),
    height: row.height === null ? null : Number(row.height),
    mime: row.mime,
    formats: row.formats,
  };
}

/**
 * Up to this many matches a page is read through its matches (each article's row read once, then
 * the ids sorted), beyond it by a walk newest first, which reads about published / matches rows per
 * article on the page. At 10,000 articles a walk for a word in no article took 20 ms; but with 240
 * to 480 matches the walk reads fewer rows (the benchmark's uncached tag filters, four of them in
 * that range: 154 instead of 474 req/s with the line at 500).
 */
const FEW_MATCHES = 100;

// The columns of SummaryRow, as summaryRows selects them.
const SUMMARY_COLUMNS = [
  'a.document_id',
  'a.title',
  'a.slug',
  'a.summary',
  'a.content',
  'a.reading_time',
  'a.tags',
  'a.cover_image_url',
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
];

// How the summary reads reach each article row's (alias `a`) category link (`l`) and category
// (`c`), uploaded cover (its link `fr`, its file `f`) and view count (`v`): SQL written once, which
// knex passes on as it is (see joinRaw) and the fixed reads below run as it is (see readRows).
const CATEGORY_JOINS = `LEFT JOIN ${TABLES.articleCategoryLinks} l ON l.article_id = a.id LEFT JOIN ${TABLES.categories} c ON c.id = l.category_id`;
const COVER_JOINS = `LEFT JOIN ${TABLES.mediaLinks} fr ON fr.related_id = a.id AND fr.related_type = '${ARTICLE_UID}' AND fr.field = 'cover' LEFT JOIN ${TABLES.files} f ON f.id = fr.file_id`;
const SUMMARY_JOINS = `${CATEGORY_JOINS} ${COVER_JOINS} LEFT JOIN ${TABLES.viewCounts} v ON v.article_document_id = a.document_id`;
const NEWEST_FIRST = 'a.published_at DESC, a.created_at DESC, a.id DESC';

/** The summary columns and `extra` columns of `a`, of the published article rows (add AND ... to narrow them). */
const publishedSummaries = (extra: string[] = []): string =>
  `SELECT ${[...SUMMARY_COLUMNS, ...extra].join(', ')} FROM ${TABLES.articles} a ${SUMMARY_JOINS} WHERE a.published_at IS NOT NULL`;

// The reads whose SQL never changes (but for a page's numbers), run by readRows.
const NEWEST_SUMMARIES = `${publishedSummaries()} ORDER BY ${NEWEST_FIRST}`;
const DETAIL_BY_SLUG = `${publishedSummaries(['a.id', 'a.meta_title', 'a.meta_description', 'a.meta_keywords', 'l.category_id'])} AND a.slug = ? ${limitSql(1)}`;
const PUBLISHED_COUNT = `SELECT count(*) AS total FROM ${TABLES.articles} a WHERE a.published_at IS NOT NULL`;
const GALLERY_OF = `SELECT f.url, f.alternative_text, f.caption, f.width, f.height, f.mime, f.formats
  FROM ${TABLES.mediaLinks} fr JOIN ${TABLES.files} f ON f.id = fr.file_id
  WHERE fr.related_type = '${ARTICLE_UID}' AND fr.field = 'gallery' AND fr.related_id = ? ORDER BY fr."order"`;

const documentIdsOf = (rows: unknown): string[] => (rows as Array<{ document_id: string }>).map((row) => String(row.document_id));

/**
 * Published articles as the public reads see them, straight from Strapi's tables: raw queries,
 * because the Document Service's $containsi does not escape LIKE wildcards, cannot match a whole
 * tag and cannot count per category in one query. Every query reads published rows only.
 */
export const publishedArticles = (strapi: Core.Strapi) => {
  // Only reads here: outside a write they run on SQLite's read-only connection (see readDatabase).
  const knex = (): Knex => readDatabase(strapi);

  const sqlite = isSqlite(strapi);

  /** Published article rows (alias `a`): the base of every query here. */
  const publishedRows = (): QueryBuilder => knex()({ a: TABLES.articles }).whereNotNull('a.published_at');

  /**
   * The same rows, for a query that picks them by their ids (a category's links): SQLite looks each
   * id up in the index of published ids instead of reading the row, whose published_at lies past
   * its text, in its overflow pages. Counting a category of 700 of 10,000 articles took 0.8 instead
   * of 5.0 ms. SQLite's planner takes the index by itself only once ANALYZE has run; PostgreSQL's
   * chooses it by itself.
   */
  const publishedRowsById = (): QueryBuilder =>
    sqlite
      ? knex()
          .from(knex().raw('?? AS a INDEXED BY ??', [TABLES.articles, PUBLISHED_ARTICLE_IDS_INDEX]))
          .whereNotNull('a.published_at')
      : publishedRows();

  /** Published article rows with their category link (`l`) and category (`c`). */
  const published = (): QueryBuilder => publishedRows().joinRaw(CATEGORY_JOINS);

  const newestFirst = (query: QueryBuilder): QueryBuilder => query.orderByRaw(NEWEST_FIRST);

  /**
   * How a page query names the article's columns in its filters. SQLite plans a page newest first
   * best by walking the published_at index and stopping after one page; a filter on a plain column
   * lets it drive by the filter's set instead and sort every match (with its text) first. A unary
   * + keeps the column from being used that way. PostgreSQL plans either well.
   */
  const pageColumn = (column: string): RawSql => knex().raw(sqlite ? '+??' : '??', [column]);

  /** The ids of the categories a filter names (by name or slug, any case): a handful of rows, read first so the link table's index is used. */
  const categoryIdsNamed = async (category: string): Promise<number[]> => {
    const key = category.toLowerCase();
    const rows = (await knex()(TABLES.categories)
      .select('id')
      .whereRaw('LOWER(name) = ?', [key])
      .orWhereRaw('LOWER(slug) = ?', [key])) as Array<{ id: number | string }>;
    return rows.map((row) => Number(row.id));
  };

  /**
   * The published articles the filters select, each filter a set of documents (or rows) the article
   * must be in: the search index's matches, the tag index's documents, the category's links. For a
   * page (`forPage`) the sets are written for a newest-first walk (see pageColumn). Null: a named
   * category does not exist, so nothing matches. (The query comes wrapped: a query builder is a
   * thenable, which an async function's promise would run.)
   */
  const filtered = async (filters: ArticleFilters, { forPage }: { forPage: boolean }): Promise<{ query: QueryBuilder } | null> => {
    const column = (name: string): RawSql => (forPage ? pageColumn(name) : knex().raw('??', [name]));
    // A page walks the published_at index instead (see pageColumn).
    const query = filters.category !== null && !forPage ? publishedRowsById() : publishedRows();
    searchIndex(strapi).filter(query, filters.words, column('a.document_id'), { forPage });
    if (filters.category !== null) {
      const categoryIds = await categoryIdsNamed(filters.category);
      if (categoryIds.length === 0) return null;
      query.whereRaw('? IN ?', [
        column('a.id'),
        knex()(TABLES.articleCategoryLinks).select('article_id').whereIn('category_id', categoryIds),
      ]);
    }
    if (filters.tagKey !== null) {
      if (indexComplete(strapi))
        query.whereRaw('? IN ?', [column('a.document_id'), knex()(TABLES.tags).select('document_id').where('tag', filters.tagKey)]);
      else {
        const scan = hasTagByScan('a.tags', filters.tagKey, sqlite);
        query.whereRaw(scan.sql, scan.bindings);
      }
    }
    return { query };
  };

  /**
   * The summary columns of each article a query selects (its category, view count and uploaded
   * cover), and any `extra` columns of `a`. Written as one piece of SQL: knex quotes each named
   * column anew on every query, a tenth of an uncached latest's time. None of the names needs quoting.
   */
  const withSummaryColumns = (query: QueryBuilder, extra: string[] = []): QueryBuilder =>
    query.joinRaw(SUMMARY_JOINS).select(knex().raw([...SUMMARY_COLUMNS, ...extra].join(', ')));

  const summaryRows = async <Row extends SummaryRow>(query: QueryBuilder, extra: string[] = []): Promise<Row[]> =>
    (await withSummaryColumns(query, extra)) as Row[];

  /** The summaries of a filtered list's page: a long read (see longReadRows). */
  const filteredRecords = async (query: QueryBuilder): Promise<ArticleRecord[]> =>
    ((await longReadRows(strapi, withSummaryColumns(query))) as SummaryRow[]).map(parseSummaryRow);

  /** An article's gallery, in the order the editor gave it. */
  const galleryOf = async (articleId: number): Promise<MediaRecord[]> =>
    ((await readRows(strapi, GALLERY_OF, [articleId])) as GalleryRow[]).map(parseGalleryRow);

  const narrowsNothing = (filters: ArticleFilters): boolean =>
    filters.words.length === 0 && filters.category === null && filters.tagKey === null;

  return {
    categoryIdsNamed,

    async count(filters: ArticleFilters): Promise<number> {
      if (narrowsNothing(filters))
        return Number(((await readRows(strapi, PUBLISHED_COUNT)) as Array<{ total: number | string }>)[0]?.total ?? 0);
      if (filters.category === null && filters.tagKey === null && filters.words.length > 0) {
        const matches = await searchIndex(strapi).countAlone(filters.words);
        if (matches !== null) return matches;
      }
      const selected = await filtered(filters, { forPage: false });
      if (selected === null) return 0;
      const [row] = (await longReadRows(strapi, selected.query.count({ total: '*' }))) as Array<{ total: number | string }>;
      return Number(row?.total ?? 0);
    },

    /**
     * One page of the filtered articles, newest first. `matching`, when the caller has counted
     * them: up to FEW_MATCHES, the page is read through the matches and sorted, instead of walking
     * the published articles newest first until a page is found (the whole archive, for a word in
     * a handful of articles).
     */
    async newest(filters: ArticleFilters, limit: number, offset = 0, matching?: number): Promise<ArticleRecord[]> {
      // The latest, the unfiltered list and a feed of every category: a page of the published_at index.
      if (narrowsNothing(filters))
        return ((await readRows(strapi, `${NEWEST_SUMMARIES} ${limitSql(limit, offset)}`)) as SummaryRow[]).map(parseSummaryRow);
      const walk = matching === undefined || matching > FEW_MATCHES;
      const selected = await filtered(filters, { forPage: walk });
      if (selected === null) return [];
      if (walk) return filteredRecords(limitRows(newestFirst(selected.query), limit, offset));
      // The matches are sorted by their ids and dates alone; only the page's rows are read with their summaries.
      const page = limitRows(newestFirst(selected.query.select('a.id')), limit, offset);
      return filteredRecords(newestFirst(publishedRows().whereIn('a.id', page)));
    },

    /**
     * A document's published version: its row (the Document Service replaces it on every publish),
     * where it stands, and when it was published; null when it is not published.
     */
    async publishedVersionOf(documentId: string): Promise<PublishedVersion | null> {
      const row = (await firstRow(
        publishedRows()
          .leftJoin({ l: TABLES.articleCategoryLinks }, 'l.article_id', 'a.id')
          .where('a.document_id', documentId)
          .select('a.id', 'a.title', 'a.content', 'a.tags', 'l.category_id', 'a.published_at', 'a.created_at'),
      )) as
        | {
            id: number | string;
            title: string | null;
            content: string | null;
            tags: string | null;
            category_id: number | string | null;
            published_at: unknown;
            created_at: unknown;
          }
        | undefined;
      if (row === undefined) return null;
      return {
        rowId: Number(row.id),
        tagKeys: parseTags(row.tags).map(tagKey),
        categoryId: row.category_id === null ? null : Number(row.category_id),
        publishedAt: toEpochMs(row.published_at) ?? 0,
        createdAt: toEpochMs(row.created_at) ?? 0,
        searchableText: searchableText(row),
      };
    },

    /** The published article with this slug, as its page shows it, and its category's id (for related articles); null if there is none. */
    async detailBySlug(slug: string): Promise<{ record: ArticleDetailRecord; categoryId: number | null } | null> {
      const [row] = (await readRows(strapi, DETAIL_BY_SLUG, [slug])) as DetailRow[];
      if (row === undefined) return null;
      return {
        record: {
          ...parseSummaryRow(row),
          metaTitle: row.meta_title,
          metaDescription: row.meta_description,
          metaKeywords: row.meta_keywords,
          gallery: await galleryOf(Number(row.id)),
        },
        categoryId: row.category_id === null ? null : Number(row.category_id),
      };
    },

    /** The published articles of these documents, in the order given (unpublished ones left out). */
    async byDocumentIds(documentIds: string[]): Promise<ArticleRecord[]> {
      if (documentIds.length === 0) return [];
      const rows = (await readRows(
        strapi,
        `${publishedSummaries()} AND a.document_id IN (${documentIds.map(() => '?').join(', ')})`,
        documentIds,
      )) as SummaryRow[];
      const found = new Map(rows.map(parseSummaryRow).map((record) => [record.documentId, record]));
      return documentIds.flatMap((id) => found.get(id) ?? []);
    },

    /**
     * Up to `limit` published articles sharing the most of these tag keys with an article, ranked by
     * shared tags, then its category first, then newest; never the article itself; each with its
     * rank. Only the newest RELATED_CANDIDATES_PER_TAG articles of each tag are candidates, so the
     * cost does not grow with the archive. The summaries come with the ranking, in one query.
     */
    async sharingTags(
      article: { documentId: string; tagKeys: string[]; categoryId: number | null },
      limit: number,
    ): Promise<Array<{ record: ArticleRecord; rank: RelatedRank }>> {
      if (article.tagKeys.length === 0) return [];
      // A UNION of per-tag LIMITs has no query-builder form; PostgreSQL needs an alias on every subquery in FROM.
      // UNION ALL: IN needs no duplicates removed, and SQLite's UNION sorted every tag's candidates to remove them (a third of the query's time).
      const union = (parts: Array<{ sql: string; bindings: unknown[] }>) => ({
        sql: parts.map((part, index) => `SELECT * FROM (${part.sql}) AS tag_${index}`).join(' UNION ALL '),
        bindings: parts.flatMap((part) => part.bindings),
      });
      const newestOfTag = `ORDER BY published_at DESC LIMIT ${RELATED_CANDIDATES_PER_TAG}`;
      // Each candidate document with how many of the tags it shares (a subquery in parentheses).
      let sharing: RawSql;
      if (indexComplete(strapi)) {
        const candidates = union(
          article.tagKeys.map((key) => ({
            sql: `SELECT document_id FROM ${TABLES.tags} WHERE tag = ? AND document_id <> ? ${newestOfTag}`,
            bindings: [key, article.documentId],
          })),
        );
        // A query builder as a binding is written in parentheses.
        sharing = knex().raw('?', [
          knex()(TABLES.tags)
            .select('document_id')
            .count({ shared: '*' })
            .whereIn('tag', article.tagKeys)
            .whereRaw(`document_id IN (${candidates.sql})`, candidates.bindings)
            .groupBy('document_id'),
        ]);
      } else {
        // While the index is built: the same candidates and counts, read from the articles' tags.
        const scans = article.tagKeys.map((key) => hasTagByScan('tags', key, sqlite));
        const candidates = union(
          scans.map((scan) => ({
            sql: `SELECT document_id FROM ${TABLES.articles} WHERE published_at IS NOT NULL AND ${scan.sql} AND document_id <> ? ${newestOfTag}`,
            bindings: [...scan.bindings, article.documentId],
          })),
        );
        const shared = scans.map((scan) => `CASE WHEN ${scan.sql} THEN 1 ELSE 0 END`).join(' + ');
        sharing = knex().raw(
          `(SELECT document_id, ${shared} AS shared FROM ${TABLES.articles} WHERE published_at IS NOT NULL AND document_id IN (${candidates.sql}))`,
          [...scans.flatMap((scan) => scan.bindings), ...candidates.bindings],
        );
      }
      // Without a category there is no tie-break by it: a bare 0 in ORDER BY would name a column (an error).
      const sameCategory = knex().raw(
        article.categoryId === null ? 'CASE WHEN 1 = 0 THEN 1 ELSE 0 END' : 'CASE WHEN l.category_id = ? THEN 1 ELSE 0 END',
        article.categoryId === null ? [] : [article.categoryId],
      );
      // Ranked on the candidates' small columns first; only the chosen few are read with their
      // summaries (sorting every candidate with its text took 1.5 instead of 0.9 ms).
      const ranked = limitRows(
        publishedRows()
          .leftJoin({ l: TABLES.articleCategoryLinks }, 'l.article_id', 'a.id')
          .join(knex().raw('? AS s', [sharing]), 's.document_id', 'a.document_id')
          .select('a.id', 's.shared', knex().raw('? AS same_category', [sameCategory]))
          .orderBy([
            { column: 's.shared', order: 'desc' },
            { column: 'same_category', order: 'desc' },
            { column: 'a.published_at', order: 'desc' },
            { column: 'a.created_at', order: 'desc' },
          ]),
        limit,
      );
      const chosen = publishedRows()
        .join(knex().raw('? AS r', [ranked]), 'r.id', 'a.id')
        .orderBy([
          { column: 'r.shared', order: 'desc' },
          { column: 'r.same_category', order: 'desc' },
          { column: 'a.published_at', order: 'desc' },
          { column: 'a.created_at', order: 'desc' },
        ]);
      const rows = await summaryRows<SummaryRow & { shared: number | string; category_id: number | string | null }>(chosen, [
        'r.shared',
        'l.category_id',
      ]);
      return rows.map((row) => ({
        record: parseSummaryRow(row),
        rank: {
          shared: Number(row.shared),
          sameCategory: article.categoryId !== null && row.category_id !== null && Number(row.category_id) === article.categoryId,
          publishedAt: toEpochMs(row.published_at) ?? 0,
          createdAt: toEpochMs(row.created_at) ?? 0,
        },
      }));
    },

    /**
     * The documents that an article published at `publishedAt` with these tags, and the articles
     * of each tag published with or after it (the same transaction can publish several), can have
     * pushed out of each tag's related candidates: those just past the newest
     * RELATED_CANDIDATES_PER_TAG, one further per such article and one more (an article is never
     * its own candidate), with any published at the same moment (the candidates' order leaves
     * those tied). Writes of other transactions must have committed first (see
     * read-freshness.articleWriteBegins).
     */
    async pushedOutOfCandidates(tagKeys: string[], publishedAt: number): Promise<string[]> {
      const pushedOut = new Set<string>();
      for (const key of tagKeys) {
        const newer = (await firstRow(
          knex()(TABLES.tags).where('tag', key).where('published_at', '>=', new Date(publishedAt)).count({ total: '*' }),
        )) as { total: number | string } | undefined;
        const edge = limitRows(
          knex()(TABLES.tags).select('published_at').where('tag', key).orderBy('published_at', 'desc'),
          Math.max(1, Number(newer?.total ?? 0)) + 1,
          RELATED_CANDIDATES_PER_TAG,
        );
        const rows = (await knex()(TABLES.tags).select('document_id').where('tag', key).whereIn('published_at', edge)) as Array<{
          document_id: string;
        }>;
        for (const row of rows) pushedOut.add(String(row.document_id));
      }
      return [...pushedOut];
    },

    /** The newest documents (of one category, when given) other than those excluded. */
    async newestExcept(excluded: string[], categoryId: number | null, limit: number): Promise<string[]> {
      const query = limitRows(newestFirst(published()).whereNotIn('a.document_id', excluded).select('a.document_id'), limit);
      if (categoryId !== null) query.where('l.category_id', categoryId);
      return documentIdsOf(await query);
    },

    /** Published articles `offset` to `offset + limit` in a stable order (row id), with their photos. */
    async sitemapPage(offset: number, limit: number): Promise<SitemapRecord[]> {
      const rows = (await limitRows(
        publishedRows()
          .joinRaw(COVER_JOINS)
          .select('a.id', 'a.slug', 'a.updated_at', 'a.cover_image_url', 'f.url as cover_media_url')
          .orderBy('a.id'),
        limit,
        offset,
      )) as Array<{ id: number; slug: string | null; updated_at: unknown; cover_image_url: string | null; cover_media_url: string | null }>;
      const gallery = new Map<number, string[]>();
      for (let start = 0; start < rows.length; start += 500) {
        const ids = rows.slice(start, start + 500).map((row) => row.id);
        const images = (await knex()({ fr: TABLES.mediaLinks })
          .join({ f: TABLES.files }, 'f.id', 'fr.file_id')
          .where('fr.related_type', ARTICLE_UID)
          .where('fr.field', 'gallery')
          .whereIn('fr.related_id', ids)
          .select('fr.related_id', 'f.url')
          .orderBy([{ column: 'fr.related_id' }, { column: 'fr.order' }])) as Array<{ related_id: number; url: string }>;
        for (const image of images) gallery.set(Number(image.related_id), [...(gallery.get(Number(image.related_id)) ?? []), image.url]);
      }
      return rows.map((row) => ({
        slug: row.slug ?? '',
        updatedAt: toIsoString(row.updated_at) ?? '',
        coverImageUrl: row.cover_image_url,
        coverMediaUrl: row.cover_media_url,
        galleryUrls: gallery.get(Number(row.id)) ?? [],
      }));
    },

    /** Every category with its number of published articles, by name. */
    async categoryCounts(): Promise<CategoryCountRecord[]> {
      const categories = (await knex()(TABLES.categories).select('id', 'name', 'slug').orderByRaw('LOWER(name) ASC')) as Array<{
        id: number | string;
        name: string | null;
        slug: string | null;
      }>;
      // Counted from the published rows' ids alone: the article rows themselves (with their text) are
      // never read. SQLite is told to start from the articles (CROSS JOIN fixes the order), so it reads
      // the published_at index instead of looking up every link's article row.
      const counted = (await knex()
        .select('l.category_id')
        .count({ article_count: '*' })
        .from(
          knex().raw(`?? AS a ${sqlite ? 'CROSS JOIN' : 'JOIN'} ?? AS l ON l.article_id = a.id`, [
            TABLES.articles,
            TABLES.articleCategoryLinks,
          ]),
        )
        .whereNotNull('a.published_at')
        .groupBy('l.category_id')) as Array<{ category_id: number | string; article_count: number | string }>;
      const counts = new Map(counted.map((row) => [Number(row.category_id), Number(row.article_count)]));
      return categories.map((row) => ({ name: row.name ?? '', slug: row.slug ?? '', articleCount: counts.get(Number(row.id)) ?? 0 }));
    },
  };
};
