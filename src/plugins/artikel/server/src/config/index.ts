import { ADMIN_LOCALES, DEFAULT_ADMIN_LOCALE, isAdminLocale } from '../../../shared/admin-locales';
import { isBlank } from '../utils/blank';
import { DEFAULT_COPYRIGHT_NOTICE, NOTICE_PLACEHOLDERS, unknownNoticePlaceholders } from '../utils/copyright-notice';
import { canonicalLanguageTag, LANGUAGE_TAG_LENGTH } from '../utils/language-tag';
import { EXPORT_MAX_ROWS } from '../constants';

export interface ArtikelConfig {
  /** The author of an article that names none (environment variable STUDIO_NAME). */
  studioName: string;
  /** Posts per minute allowed to one API token and to one client address; 0 turns the limit off (ARTIKEL_RATE_LIMIT). */
  postsPerMinute: number;
  /** The public page of an article, with {slug} (SITE_ARTICLE_URL); empty: the admin offers no preview. */
  siteArticleUrl: string;
  /** The public site's draft preview page, with {token} and optionally {slug} (SITE_PREVIEW_URL). */
  sitePreviewUrl: string;
  /** How long a draft's preview link works (ARTIKEL_PREVIEW_MINUTES). */
  previewLinkMinutes: number;
  /** How long the answer to a POST with an Idempotency-Key is kept for its retries (ARTIKEL_IDEMPOTENCY_HOURS). */
  idempotencyHours: number;
  /** Seconds a shared cache may keep a list, categories or latest (ARTIKEL_CACHE_MAX_AGE); 0: revalidate every time. */
  cacheMaxAge: number;
  /** Seconds a shared cache may serve one stale while it revalidates (ARTIKEL_CACHE_STALE_SECONDS). */
  cacheStaleSeconds: number;
  /** Article pages per sitemap file; past it /sitemap.xml is an index (ARTIKEL_SITEMAP_URLS, default 10,000, at most the protocol's 50,000). */
  sitemapUrls: number;
  /** The most articles one GET /api/artikel/export.csv serves (ARTIKEL_EXPORT_ROWS, default and at most 50,000). */
  exportRows: number;
  /** Searches (long reads) run at once (ARTIKEL_SEARCH_READERS; 0, the default: by the cores, see search-turns.ts). */
  searchReaders: number;
  /**
   * Matches a list counts exactly; past them its total is this lower bound, with total_exact
   * false (ARTIKEL_EXACT_TOTAL, default 10,000, as the contract promises; a smaller one trades
   * that promise for speed).
   */
  exactTotal: number;
  /** Searches one client may have waiting before a 429 (ARTIKEL_SEARCH_QUEUE, default 8). */
  searchQueue: number;
  /** Whether agents also see Strapi's generic MCP tools for Article and Category (ARTIKEL_MCP_GENERIC_TOOLS, default false). */
  mcpGenericTools: boolean;
  /** The largest image the Media Library takes, in megapixels (ARTIKEL_MAX_MEGAPIXELS, default 100). */
  maxMegapixels: number;
  /**
   * Seconds before a photo's renditions are tried again after the storage failed them
   * (ARTIKEL_PHOTO_RETRY_SECONDS, default 30), doubled at each failure up to an hour.
   */
  photoRetrySeconds: number;
  /** Photos decoded at once per instance, uploads and renditions together (ARTIKEL_PHOTO_CONCURRENCY, default 1). */
  photoConcurrency: number;
  /** A search's time budget in ms, past which it is stopped with a 503 (ARTIKEL_SEARCH_BUDGET_MS, default 3,000). */
  searchBudgetMs: number;
  /** Bytes the read cache may hold (ARTIKEL_READ_CACHE_MB, in mebibytes); 0 turns it off. */
  readCacheBytes: number;
  /** On SQLite, milliseconds views are counted in memory before they are written, together (ARTIKEL_VIEW_WRITE_MS); 0 writes each at once. */
  viewWriteMs: number;
  /** Seconds a list's paging cursor works for, at least (ARTIKEL_CURSOR_SECONDS). */
  cursorSeconds: number;
  /** Revisions kept per article, the newest (ARTIKEL_REVISIONS_KEEP); 0 keeps none. */
  revisionsKeep: number;
  /** Days a revision is kept, an article's newest excepted (ARTIKEL_REVISIONS_DAYS); 0 keeps them whatever their age. */
  revisionsDays: number;
  /** Seconds between two background looks for revisions past their age and trashed articles past their time (ARTIKEL_CLEANUP_SECONDS). */
  cleanupSeconds: number;
  /** Days a deleted article stays in the trash, restorable, before it is purged (ARTIKEL_TRASH_DAYS); 0 deletes at once. */
  trashDays: number;
  /** The admin language stored on a new admin user created without one (ADMIN_DEFAULT_LOCALE). */
  adminDefaultLocale: string;
  /** The language the articles are written in, a BCP 47 tag in canonical form (ARTIKEL_LANGUAGE): feeds, json_ld, Markdown, OpenAPI examples. */
  language: string;
  /** Every image's copyright notice in json_ld and the feeds' copyright, with {year} and {studio} (ARTIKEL_COPYRIGHT_NOTICE). */
  copyrightNotice: string;
  /** The license of every image in json_ld (ARTIKEL_LICENSE_URL); empty: none is named. */
  licenseUrl: string;
  /** Where a license for an image can be had (ARTIKEL_ACQUIRE_LICENSE_URL); empty: none is named. */
  acquireLicenseUrl: string;
}

const DEFAULT_POSTS_PER_MINUTE = 60;
const DEFAULT_PREVIEW_LINK_MINUTES = 30;
const DEFAULT_IDEMPOTENCY_HOURS = 24;
const DEFAULT_CACHE_MAX_AGE = 60;
const DEFAULT_CACHE_STALE_SECONDS = 300;
// The sitemap protocol's limit of URLs per file.
const SITEMAP_PROTOCOL_URLS = 50_000;
// A file is built whole in memory (and kept in the read cache): at 100,000 articles, the two files of
// 50,000 pages read at once took the process's peak RSS 140 MB higher; ten of 10,000 read at once, 75 MB.
const DEFAULT_SITEMAP_URLS = 10_000;
// Every list page, feed and sitemap file of a large site and thousands of article pages. The budget
// counts JSON bytes; the process grows by more (Strapi itself, SQLite's page caches, GC slack): at
// 100,000 articles bench/memory.js measured a peak RSS of 476 MB with 64, 401 MB with 32 (one page
// cache of 32 MB) and 388.7 MB with 24 (two of 16 MB), under 100,000 distinct searches and 20,000
// distinct articles.
const DEFAULT_READ_CACHE_MB = 24;
const MEBIBYTE = 1024 * 1024;
// A process crash loses at most this much of the views on SQLite; one write a second costs nothing a reader waits for.
const DEFAULT_VIEW_WRITE_MS = 1000;
// A day: a walk of a million articles at 50 a page is 20,000 requests, hours for a slow workflow.
const DEFAULT_CURSOR_SECONDS = 24 * 3600;
// Fifty versions of an article reach back over months of edits; a revision holds the article's
// text, so the bound is what a busy article can cost in storage.
const DEFAULT_REVISIONS_KEEP = 50;
// A year of history by default; the newest revision of an article is kept whatever its age.
const DEFAULT_REVISIONS_DAYS = 365;
const DEFAULT_CLEANUP_SECONDS = 3600;
// The contract's fourth round: totals are exact up to 10,000 matches (as Elasticsearch's track_total_hits).
const DEFAULT_EXACT_TOTAL = 10_000;
// A month to notice a wrong delete, as the trash of most editors' tools.
const DEFAULT_TRASH_DAYS = 30;
// The studio writes in Indonesian (the contract's third round).
const DEFAULT_LANGUAGE = 'id';
// Names and notices are printed in feeds and structured data, one line each.
const TEXT_SETTING_LENGTH = 200;
// The URL length every browser and crawler handles.
const URL_SETTING_LENGTH = 2000;
// C0 and C1 controls (line breaks included): a name or notice is one line of text.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

function wholeNumberFromEnv(value: string | undefined, fallback: number): number {
  if (value === undefined || isBlank(value)) return fallback;
  return /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
}

/** By default the draft preview is the article's own page with the token as a query parameter. */
function defaultPreviewUrl(articleUrl: string): string {
  return articleUrl === '' ? '' : `${articleUrl}${articleUrl.includes('?') ? '&' : '?'}preview={token}`;
}

/** One line of text of 1 to TEXT_SETTING_LENGTH characters (code points). */
function isBoundedLine(value: unknown): boolean {
  return typeof value === 'string' && !isBlank(value) && [...value].length <= TEXT_SETTING_LENGTH && !CONTROL_CHARACTER.test(value);
}

/** An absolute http(s) URL of at most URL_SETTING_LENGTH characters; '' (not configured) passes. */
function isOptionalHttpUrl(value: unknown): boolean {
  if (value === '') return true;
  if (typeof value !== 'string' || value.length > URL_SETTING_LENGTH) return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** The tag in canonical form; a value that is no tag is kept as written, for the validator to refuse. */
function languageFromEnv(value: string | undefined): string {
  const written = value?.trim() || DEFAULT_LANGUAGE;
  return canonicalLanguageTag(written) ?? written;
}

function isHttpUrlPattern(pattern: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(pattern.replace(/\{\w+\}/g, 'x')).protocol);
  } catch {
    return false;
  }
}

export default {
  default: (): ArtikelConfig => {
    const siteArticleUrl = process.env.SITE_ARTICLE_URL?.trim() ?? '';
    return {
      studioName: process.env.STUDIO_NAME?.trim() || 'Studio',
      postsPerMinute: wholeNumberFromEnv(process.env.ARTIKEL_RATE_LIMIT, DEFAULT_POSTS_PER_MINUTE),
      siteArticleUrl,
      sitePreviewUrl: process.env.SITE_PREVIEW_URL?.trim() || defaultPreviewUrl(siteArticleUrl),
      previewLinkMinutes: wholeNumberFromEnv(process.env.ARTIKEL_PREVIEW_MINUTES, DEFAULT_PREVIEW_LINK_MINUTES),
      idempotencyHours: wholeNumberFromEnv(process.env.ARTIKEL_IDEMPOTENCY_HOURS, DEFAULT_IDEMPOTENCY_HOURS),
      cacheMaxAge: wholeNumberFromEnv(process.env.ARTIKEL_CACHE_MAX_AGE, DEFAULT_CACHE_MAX_AGE),
      cacheStaleSeconds: wholeNumberFromEnv(process.env.ARTIKEL_CACHE_STALE_SECONDS, DEFAULT_CACHE_STALE_SECONDS),
      sitemapUrls: wholeNumberFromEnv(process.env.ARTIKEL_SITEMAP_URLS, DEFAULT_SITEMAP_URLS),
      exportRows: wholeNumberFromEnv(process.env.ARTIKEL_EXPORT_ROWS, EXPORT_MAX_ROWS),
      exactTotal: wholeNumberFromEnv(process.env.ARTIKEL_EXACT_TOTAL, DEFAULT_EXACT_TOTAL),
      searchReaders: wholeNumberFromEnv(process.env.ARTIKEL_SEARCH_READERS, 0),
      searchQueue: wholeNumberFromEnv(process.env.ARTIKEL_SEARCH_QUEUE, 8),
      searchBudgetMs: wholeNumberFromEnv(process.env.ARTIKEL_SEARCH_BUDGET_MS, 3000),
      maxMegapixels: wholeNumberFromEnv(process.env.ARTIKEL_MAX_MEGAPIXELS, 100),
      photoRetrySeconds: wholeNumberFromEnv(process.env.ARTIKEL_PHOTO_RETRY_SECONDS, 30),
      photoConcurrency: wholeNumberFromEnv(process.env.ARTIKEL_PHOTO_CONCURRENCY, 1),
      mcpGenericTools: process.env.ARTIKEL_MCP_GENERIC_TOOLS === 'true',
      readCacheBytes: wholeNumberFromEnv(process.env.ARTIKEL_READ_CACHE_MB, DEFAULT_READ_CACHE_MB) * MEBIBYTE,
      viewWriteMs: wholeNumberFromEnv(process.env.ARTIKEL_VIEW_WRITE_MS, DEFAULT_VIEW_WRITE_MS),
      cursorSeconds: wholeNumberFromEnv(process.env.ARTIKEL_CURSOR_SECONDS, DEFAULT_CURSOR_SECONDS),
      revisionsKeep: wholeNumberFromEnv(process.env.ARTIKEL_REVISIONS_KEEP, DEFAULT_REVISIONS_KEEP),
      revisionsDays: wholeNumberFromEnv(process.env.ARTIKEL_REVISIONS_DAYS, DEFAULT_REVISIONS_DAYS),
      cleanupSeconds: wholeNumberFromEnv(process.env.ARTIKEL_CLEANUP_SECONDS, DEFAULT_CLEANUP_SECONDS),
      trashDays: wholeNumberFromEnv(process.env.ARTIKEL_TRASH_DAYS, DEFAULT_TRASH_DAYS),
      adminDefaultLocale: process.env.ADMIN_DEFAULT_LOCALE?.trim() || DEFAULT_ADMIN_LOCALE,
      language: languageFromEnv(process.env.ARTIKEL_LANGUAGE),
      copyrightNotice: process.env.ARTIKEL_COPYRIGHT_NOTICE?.trim() || DEFAULT_COPYRIGHT_NOTICE,
      licenseUrl: process.env.ARTIKEL_LICENSE_URL?.trim() ?? '',
      acquireLicenseUrl: process.env.ARTIKEL_ACQUIRE_LICENSE_URL?.trim() ?? '',
    };
  },
  validator(config: ArtikelConfig) {
    if (!isBoundedLine(config.studioName)) {
      throw new Error(`artikel: STUDIO_NAME must be 1 to ${TEXT_SETTING_LENGTH} characters without control characters`);
    }
    if (typeof config.language !== 'string' || canonicalLanguageTag(config.language) !== config.language) {
      throw new Error(
        `artikel: ARTIKEL_LANGUAGE must be a BCP 47 language tag of at most ${LANGUAGE_TAG_LENGTH} characters, e.g. id, en or en-GB (got "${String(config.language).slice(0, 40)}")`,
      );
    }
    if (!isBoundedLine(config.copyrightNotice)) {
      throw new Error(`artikel: ARTIKEL_COPYRIGHT_NOTICE must be 1 to ${TEXT_SETTING_LENGTH} characters without control characters`);
    }
    const unknownPlaceholders = unknownNoticePlaceholders(config.copyrightNotice);
    if (unknownPlaceholders.length > 0) {
      throw new Error(
        `artikel: ARTIKEL_COPYRIGHT_NOTICE may name ${NOTICE_PLACEHOLDERS.map((name) => `{${name}}`).join(' and ')} only, not ${unknownPlaceholders.map((name) => `{${name}}`).join(', ')}`,
      );
    }
    for (const [name, value] of [
      ['ARTIKEL_LICENSE_URL', config.licenseUrl],
      ['ARTIKEL_ACQUIRE_LICENSE_URL', config.acquireLicenseUrl],
    ] as const) {
      if (!isOptionalHttpUrl(value)) {
        throw new Error(
          `artikel: ${name} must be an http(s) URL of at most ${URL_SETTING_LENGTH} characters, e.g. https://studio.example/lisensi`,
        );
      }
    }
    if (!Number.isSafeInteger(config.postsPerMinute) || config.postsPerMinute < 0) {
      throw new Error('artikel: ARTIKEL_RATE_LIMIT must be a whole number of posts per minute (0 turns the limit off)');
    }
    if (config.siteArticleUrl !== '' && (!isHttpUrlPattern(config.siteArticleUrl) || !config.siteArticleUrl.includes('{slug}'))) {
      throw new Error('artikel: SITE_ARTICLE_URL must be an http(s) URL containing {slug}, e.g. https://studio.example/artikel/{slug}');
    }
    if (config.siteArticleUrl !== '' && (!isHttpUrlPattern(config.sitePreviewUrl) || !config.sitePreviewUrl.includes('{token}'))) {
      throw new Error(
        'artikel: SITE_PREVIEW_URL must be an http(s) URL containing {token}, e.g. https://studio.example/vorschau?token={token}',
      );
    }
    if (!Number.isSafeInteger(config.previewLinkMinutes) || config.previewLinkMinutes < 1) {
      throw new Error('artikel: ARTIKEL_PREVIEW_MINUTES must be a whole number of minutes, at least 1');
    }
    if (!Number.isSafeInteger(config.idempotencyHours) || config.idempotencyHours < 1) {
      throw new Error('artikel: ARTIKEL_IDEMPOTENCY_HOURS must be a whole number of hours, at least 1');
    }
    if (!Number.isSafeInteger(config.searchReaders) || config.searchReaders < 0 || config.searchReaders > 64) {
      throw new Error('artikel: ARTIKEL_SEARCH_READERS must be a whole number from 0 (by the cores) to 64');
    }
    if (!Number.isSafeInteger(config.searchQueue) || config.searchQueue < 1 || config.searchQueue > 1000) {
      throw new Error('artikel: ARTIKEL_SEARCH_QUEUE must be a whole number from 1 to 1000');
    }
    if (!Number.isSafeInteger(config.maxMegapixels) || config.maxMegapixels < 1 || config.maxMegapixels > 1000) {
      throw new Error('artikel: ARTIKEL_MAX_MEGAPIXELS must be a whole number from 1 to 1000');
    }
    if (!Number.isSafeInteger(config.photoConcurrency) || config.photoConcurrency < 1 || config.photoConcurrency > 16) {
      throw new Error('artikel: ARTIKEL_PHOTO_CONCURRENCY must be a whole number of photos from 1 to 16');
    }
    if (!Number.isSafeInteger(config.photoRetrySeconds) || config.photoRetrySeconds < 1 || config.photoRetrySeconds > 3600) {
      throw new Error('artikel: ARTIKEL_PHOTO_RETRY_SECONDS must be a whole number of seconds from 1 to 3600');
    }
    if (!Number.isSafeInteger(config.searchBudgetMs) || config.searchBudgetMs < 1 || config.searchBudgetMs > 600_000) {
      throw new Error('artikel: ARTIKEL_SEARCH_BUDGET_MS must be a whole number of milliseconds from 1 to 600000');
    }
    if (!Number.isSafeInteger(config.exportRows) || config.exportRows < 1 || config.exportRows > EXPORT_MAX_ROWS) {
      throw new Error(`artikel: ARTIKEL_EXPORT_ROWS must be a whole number from 1 to ${EXPORT_MAX_ROWS}`);
    }
    if (!Number.isSafeInteger(config.sitemapUrls) || config.sitemapUrls < 1 || config.sitemapUrls > SITEMAP_PROTOCOL_URLS) {
      throw new Error(`artikel: ARTIKEL_SITEMAP_URLS must be a whole number from 1 to ${SITEMAP_PROTOCOL_URLS}`);
    }
    if (!Number.isSafeInteger(config.readCacheBytes) || config.readCacheBytes < 0) {
      throw new Error('artikel: ARTIKEL_READ_CACHE_MB must be a whole number of mebibytes (0 turns the read cache off)');
    }
    if (!Number.isSafeInteger(config.viewWriteMs) || config.viewWriteMs < 0 || config.viewWriteMs > 60_000) {
      throw new Error('artikel: ARTIKEL_VIEW_WRITE_MS must be a whole number of milliseconds up to 60000 (0 writes each view at once)');
    }
    if (!Number.isSafeInteger(config.cursorSeconds) || config.cursorSeconds < 1) {
      throw new Error('artikel: ARTIKEL_CURSOR_SECONDS must be a whole number of seconds, at least 1');
    }
    if (!Number.isSafeInteger(config.revisionsKeep) || config.revisionsKeep < 0 || config.revisionsKeep > 10_000) {
      throw new Error('artikel: ARTIKEL_REVISIONS_KEEP must be a whole number of revisions per article up to 10000 (0 keeps none)');
    }
    if (!Number.isSafeInteger(config.revisionsDays) || config.revisionsDays < 0 || config.revisionsDays > 36_500) {
      throw new Error('artikel: ARTIKEL_REVISIONS_DAYS must be a whole number of days up to 36500 (0 keeps revisions whatever their age)');
    }
    if (!Number.isSafeInteger(config.cleanupSeconds) || config.cleanupSeconds < 1) {
      throw new Error('artikel: ARTIKEL_CLEANUP_SECONDS must be a whole number of seconds, at least 1');
    }
    if (!Number.isSafeInteger(config.exactTotal) || config.exactTotal < 1 || config.exactTotal > 10_000_000) {
      throw new Error('artikel: ARTIKEL_EXACT_TOTAL must be a whole number of matches from 1 to 10000000 (default 10000)');
    }
    if (!Number.isSafeInteger(config.trashDays) || config.trashDays < 0 || config.trashDays > 3_650) {
      throw new Error('artikel: ARTIKEL_TRASH_DAYS must be a whole number of days up to 3650 (0 deletes at once, without a trash)');
    }
    if (!isAdminLocale(config.adminDefaultLocale)) {
      throw new Error(`artikel: ADMIN_DEFAULT_LOCALE must be one of the admin's languages: ${ADMIN_LOCALES.join(', ')}`);
    }
    for (const [name, value] of [
      ['ARTIKEL_CACHE_MAX_AGE', config.cacheMaxAge],
      ['ARTIKEL_CACHE_STALE_SECONDS', config.cacheStaleSeconds],
    ] as const) {
      if (!Number.isSafeInteger(value) || value < 0) throw new Error(`artikel: ${name} must be a whole number of seconds (0 turns it off)`);
    }
  },
};
