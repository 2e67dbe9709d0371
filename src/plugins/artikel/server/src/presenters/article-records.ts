import { blankToNull, isBlank } from '../utils/blank';
import type { ArticleDetailRecord, ArticleRecord } from '../repositories/articles';
import { type Photo, toPhoto } from './photos';
import { articlePageUrl } from './links';
import { blogPosting, embeddableJson, type ImageRights } from './structured-data';
import { parseTags } from '../utils/tags';
import { readingTimeMinutes, summarize } from '../utils/content';

export interface ArticleSummary {
  id: string;
  title: string;
  slug: string;
  summary: string;
  category: { name: string; slug: string } | null;
  tags: string[];
  cover_image_url: string | null;
  /** The uploaded cover with its generated formats and srcset; null when the cover is only a linked URL or none. */
  cover: Photo | null;
  author: string;
  views: number;
  reading_time: number;
  published_at: string | null;
  updated_at: string;
}

export interface FullArticle extends ArticleSummary {
  content: string;
  content_html: string;
  gallery: Photo[];
  meta_title: string;
  meta_description: string;
  meta_keywords: string | null;
  related: ArticleSummary[];
  /** A draft scheduled to go live at publish_at is "scheduled". */
  status: 'published' | 'draft' | 'scheduled';
  /** The scheduled time while scheduled, else null. */
  publish_at: string | null;
  created_at: string;
  /** schema.org BlogPosting as JSON text, safe to print as it is in the site's <script type="application/ld+json"> (see embeddableJson). */
  json_ld: string;
}

export interface RecordContext {
  studioName: string;
  /** Prefix for media URLs that the upload provider stores relative to the server (PUBLIC_URL). */
  mediaBaseUrl: string;
  /** The public page of an article, with {slug} (SITE_ARTICLE_URL); empty without a site. */
  articleUrlPattern?: string;
  /** The language the studio writes in (ARTIKEL_LANGUAGE), named in json_ld. */
  language: string;
  /** The rights every image in json_ld names. */
  imageRights: ImageRights;
}

export function absoluteMediaUrl(url: string, context: Pick<RecordContext, 'mediaBaseUrl'>): string {
  return url.startsWith('/') ? `${context.mediaBaseUrl.replace(/\/$/, '')}${url}` : url;
}

/**
 * The defaults every article gets, whether it came through POST or the admin (see the contract).
 * Every write through the pipeline stores its summary, the one made from the content included
 * (empty for a content without text: made again, it would be empty again, after a sanitizer pass
 * over the whole content on the event loop). Only a row written behind the pipeline has none.
 */
export function effectiveSummary(record: Pick<ArticleRecord, 'summary' | 'content'>): string {
  if (record.summary === null) return summarize(record.content);
  return isBlank(record.summary) ? '' : record.summary;
}

export function toArticleSummary(record: ArticleRecord, context: RecordContext): ArticleSummary {
  const absolute = (url: string) => absoluteMediaUrl(url, context);
  const uploaded = record.coverMedia === null ? null : toPhoto(record.coverMedia, absolute, { hideExif: record.hideExif });
  const cover = blankToNull(record.coverImageUrl) ?? uploaded?.url ?? null;
  return {
    id: record.documentId,
    title: record.title,
    slug: record.slug,
    summary: effectiveSummary(record),
    category: record.category,
    tags: parseTags(record.tags),
    cover_image_url: cover,
    cover: uploaded,
    author: blankToNull(record.author) ?? context.studioName,
    views: record.views,
    reading_time: record.readingTime ?? readingTimeMinutes(record.content),
    published_at: record.publishedAt,
    updated_at: record.updatedAt,
  };
}

/**
 * The full record. Its content comes rendered (renderContentHtml, which the caller runs off the
 * event loop for a long content: see infrastructure/text-work.ts).
 */
export function toFullArticle(
  record: ArticleDetailRecord,
  related: ArticleSummary[],
  context: RecordContext,
  contentHtml: string,
): FullArticle {
  const summary = toArticleSummary(record, context);
  const gallery = record.gallery.map((image) => toPhoto(image, (url) => absoluteMediaUrl(url, context), { hideExif: record.hideExif }));
  const metaTitle = blankToNull(record.metaTitle) ?? record.title;
  const metaDescription = blankToNull(record.metaDescription) ?? summary.summary;
  const metaKeywords = blankToNull(record.metaKeywords);
  return {
    ...summary,
    content: record.content,
    content_html: contentHtml,
    gallery,
    meta_title: metaTitle,
    meta_description: metaDescription,
    meta_keywords: metaKeywords,
    related,
    status: record.publishedAt ? 'published' : record.publishAt ? 'scheduled' : 'draft',
    publish_at: record.publishedAt ? null : (record.publishAt ?? null),
    created_at: record.createdAt,
    json_ld: embeddableJson(
      blogPosting({
        title: summary.title,
        metaTitle,
        metaDescription,
        imageUrls: [...(summary.cover_image_url ? [summary.cover_image_url] : []), ...gallery.map((image) => image.url)],
        author: summary.author,
        studioName: context.studioName,
        language: context.language,
        imageRights: context.imageRights,
        publishedAt: summary.published_at,
        updatedAt: summary.updated_at,
        keywords:
          metaKeywords === null
            ? summary.tags
            : metaKeywords
                .split(',')
                .map((keyword) => keyword.trim())
                .filter(Boolean),
        pageUrl: articlePageUrl(summary.slug, { articleUrlPattern: context.articleUrlPattern ?? '', apiBase: context.mediaBaseUrl }),
        section: summary.category?.name ?? null,
      }),
    ),
  };
}
