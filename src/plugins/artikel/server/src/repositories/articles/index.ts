import type { Core } from '@strapi/strapi';
import { oncePerStrapi } from '../../infrastructure/once-per-strapi';
import { categoryCounts } from './category-counts';
import { articleDocuments } from './documents';
import { articleLists } from './lists';
import { publishedRowsOf } from './published-rows';
import { relatedArticles } from './related';
import { sitemapRows } from './sitemap';

export type { CategoryCountRecord } from './category-counts';
export type { PublishedVersion } from './documents';
export { type ArticleCount, type ArticleFilters, EVERY_ARTICLE, type PageStart } from './lists';
export type { ArticleDetailRecord, ArticleRecord, MediaRecord } from './rows';
export type { SitemapRecord } from './sitemap';

/**
 * Published articles as the public reads see them, straight from Strapi's tables: raw queries,
 * because the Document Service's $containsi does not escape LIKE wildcards, cannot match a whole
 * tag and cannot count per category in one query. Every query reads published rows only.
 */
export const publishedArticles = oncePerStrapi((strapi: Core.Strapi) => {
  const rows = publishedRowsOf(strapi);
  return {
    ...articleLists(rows),
    ...articleDocuments(rows),
    ...relatedArticles(rows),
    ...sitemapRows(rows),
    ...categoryCounts(rows),
  };
});
