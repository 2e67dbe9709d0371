export { PLUGIN_ID } from '../../shared/plugin-id';
export const ARTICLE_UID = 'api::article.article';
export const CATEGORY_UID = 'api::category.category';
export const VIEW_COUNT_UID = 'plugin::artikel.view-count';
export const REVISION_UID = 'plugin::artikel.revision';
export const UPLOAD_FILE_UID = 'plugin::upload.file';

/**
 * The fields this plugin adds to the Media Library's files (see content-types/photo-file-fields.ts):
 * a photo's BlurHash, dominant colour and camera data.
 */
export const PHOTO_FILE_FIELDS = {
  placeholder: 'artikel_placeholder',
  color: 'artikel_color',
  exif: 'artikel_exif',
} as const;

/**
 * Tables the raw queries read. Strapi names the link and media tables after the schema, and the
 * plugin's own tables are created by the plugin (see services/plugin-tables.ts).
 */
export const TABLES = {
  articles: 'articles',
  categories: 'categories',
  articleCategoryLinks: 'articles_category_lnk',
  mediaLinks: 'files_related_mph',
  files: 'files',
  /** The content type plugin::artikel.view-count (see content-types/view-count). */
  viewCounts: 'artikel_view_counts',
  /** Where views lived before they were a content type; moved and dropped at start. */
  legacyViews: 'artikel_views',
  tags: 'artikel_tags',
  /** How many articles are published: overall, per category, per tag (see repositories/article-counts.ts). */
  articleCounts: 'artikel_article_counts',
  searchDocuments: 'artikel_search_docs',
  search: 'artikel_search',
  /** SQLite: the same entries tokenized into words, for the relevance order (see repositories/search/sqlite.ts). */
  searchWords: 'artikel_search_words',
  /** SQLite: every word the word index ever held, with a trigram index of its own (see repositories/search/sqlite.ts). */
  searchVocabulary: 'artikel_search_vocabulary',
  searchVocabularyTrigrams: 'artikel_search_vocabulary_trigrams',
  /** SQLite: the entries whose words are still to be added to the vocabulary (an index from before it), while there are any. */
  searchVocabularyBackfill: 'artikel_search_vocabulary_backfill',
  /** SQLite: the entries a build added to the word index but not yet to the trigram index, while there are any. */
  searchTrigramBackfill: 'artikel_search_trigram_backfill',
  /**
   * The stems of the words the search index holds (see utils/word-stems.ts): SQLite, of each
   * vocabulary word; PostgreSQL, of each dictionary term.
   */
  searchStems: 'artikel_search_stems',
  /** PostgreSQL: every word any published article was ever found by, for the trigram lookup. */
  searchTerms: 'artikel_search_terms',
  /** PostgreSQL: words too long for the dictionary's index, per article. */
  searchLongTerms: 'artikel_search_long_terms',
  /** PostgreSQL: the terms in at least a search's counting bound of entries when last counted, with their numbers (see repositories/search/postgres.ts). */
  searchFrequentTerms: 'artikel_search_frequent_terms',
  /** PostgreSQL: a row for each entry removed or replaced since the frequent terms were counted. */
  searchRemovals: 'artikel_search_removals',
  rateLimits: 'artikel_rate_limits',
  /** The stored answers of POSTs sent with an Idempotency-Key. */
  idempotencyKeys: 'artikel_idempotency_keys',
  /** The slugs articles moved away from, each still the article's until it is deleted. */
  oldSlugs: 'artikel_old_slugs',
  /** The content type plugin::artikel.revision: each version of an article a write left (see content-types/revision). */
  revisions: 'artikel_revisions',
  /** The content type plugin::artikel.trashed-article: deleted articles, restorable until purged. */
  trash: 'artikel_trash',
  /** The photos waiting for their AVIF and WebP renditions, with their retries (see repositories/photo-jobs.ts). */
  photoJobs: 'artikel_photo_jobs',
} as const;

export const DRAFT_SLUG_UNIQUE_INDEX = 'articles_draft_slug_uq';
export const CATEGORY_SLUG_UNIQUE_INDEX = 'categories_slug_uq';
export const CATEGORY_NAME_UNIQUE_INDEX = 'categories_name_uq';
export const VIEW_COUNT_UNIQUE_INDEX = 'artikel_view_counts_article_uq';
/** The read articles by their views (a partial index): the list sorted by views walks it (see repositories/articles/lists.ts). */
export const VIEW_COUNT_VIEWS_INDEX = 'artikel_view_counts_views';
/** The ids of the published article rows (a partial index): see repositories/articles/published-rows.ts. */
export const PUBLISHED_ARTICLE_IDS_INDEX = 'artikel_published_article_ids';
/** The articles with a schedule (a partial index): see services/scheduled-publishing.ts. */
export const SCHEDULED_ARTICLES_INDEX = 'artikel_scheduled_articles';
/** The article rows without a stored reading time (a partial index): see repositories/reading-times.ts. */
export const UNCOUNTED_READING_TIMES_INDEX = 'artikel_uncounted_reading_times';

/** The longest Idempotency-Key the contract takes, in characters (its stored column is as wide). */
export const IDEMPOTENCY_KEY_LENGTH = 255;

export const LIST_DEFAULT_LIMIT = 10;
export const LIST_MAX_LIMIT = 50;
/** The most articles GET /api/artikel/export.csv serves in one file (a spreadsheet takes far more rows; a request must stay bounded). */
export const EXPORT_MAX_ROWS = 50_000;
export const LATEST_COUNT = 5;
/** Articles in a feed: the newest. */
export const FEED_SIZE = 20;
export const RELATED_COUNT = 4;
/** Related articles are ranked among the newest articles of each of the article's tags. */
export const RELATED_CANDIDATES_PER_TAG = 50;
