import { toIsoString } from '../../utils/dates';

// The records the article reads load, and the rows of the queries they are parsed from.

/** An uploaded image as the Media Library stores it (formats as Strapi wrote them, object or JSON text). */
export interface MediaRecord {
  url: string;
  width: number | null;
  height: number | null;
  mime: string | null;
  alternativeText: string | null;
  caption: string | null;
  formats: unknown;
  /** The BlurHash, dominant colour and camera data the upload read (see content-types/photo-file-fields.ts). */
  placeholder: string | null;
  color: string | null;
  exif: unknown;
}

/** One article as the reads load it, whichever query it came from. */
export interface ArticleRecord {
  documentId: string;
  title: string;
  slug: string;
  summary: string | null;
  content: string;
  /** Minutes to read, counted when the content was written; null for a row written before that was counted. */
  readingTime: number | null;
  tags: string | null;
  coverImageUrl: string | null;
  coverMedia: MediaRecord | null;
  /** The editor hid the camera data of the article's photos. */
  hideExif: boolean;
  author: string | null;
  views: number;
  category: { name: string; slug: string } | null;
  publishedAt: string | null;
  updatedAt: string;
  createdAt: string;
}

export interface ArticleDetailRecord extends ArticleRecord {
  /** When a scheduled draft goes live; null for any other article (publishing ends a schedule). */
  publishAt?: string | null;
  metaTitle: string | null;
  metaDescription: string | null;
  metaKeywords: string | null;
  gallery: MediaRecord[];
}

export interface SummaryRow {
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
  cover_placeholder: string | null;
  cover_color: string | null;
  cover_exif: unknown;
  hide_exif: boolean | number | null;
  author: string | null;
  views: number | string | null;
  category_name: string | null;
  category_slug: string | null;
  published_at: unknown;
  updated_at: unknown;
  created_at: unknown;
}

export function parseSummaryRow(row: SummaryRow): ArticleRecord {
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
            placeholder: row.cover_placeholder,
            color: row.cover_color,
            exif: row.cover_exif,
          },
    hideExif: row.hide_exif === true || row.hide_exif === 1,
    author: row.author,
    views: Number(row.views ?? 0),
    category: row.category_name === null ? null : { name: row.category_name, slug: row.category_slug ?? '' },
    publishedAt: toIsoString(row.published_at),
    updatedAt: toIsoString(row.updated_at) ?? '',
    createdAt: toIsoString(row.created_at) ?? '',
  };
}

export interface DetailRow extends SummaryRow {
  id: number | string;
  meta_title: string | null;
  meta_description: string | null;
  meta_keywords: string | null;
  category_id: number | string | null; /** Read for a document's version (DETAIL_OF_DOCUMENT), not by slug. */
  publish_at?: unknown;
}

export interface GalleryRow {
  url: string;
  alternative_text: string | null;
  caption: string | null;
  width: number | string | null;
  height: number | string | null;
  mime: string | null;
  formats: unknown;
  placeholder: string | null;
  color: string | null;
  exif: unknown;
}

export function parseGalleryRow(row: GalleryRow): MediaRecord {
  return {
    url: row.url,
    alternativeText: row.alternative_text,
    caption: row.caption,
    width: row.width === null ? null : Number(row.width),
    height: row.height === null ? null : Number(row.height),
    mime: row.mime,
    formats: row.formats,
    placeholder: row.placeholder,
    color: row.color,
    exif: row.exif,
  };
}

export const documentIdsOf = (rows: unknown): string[] => (rows as Array<{ document_id: string }>).map((row) => String(row.document_id));

/** A page's row as PostgreSQL reads it first: the row's id, and its document's (see summariesOfRows). */
export interface PageRow {
  id: number;
  documentId: string;
}

/** The rows of a page query that selected `a.id` and `a.document_id`. */
export const pageRowsOf = (rows: unknown): PageRow[] =>
  (rows as Array<{ id: unknown; document_id: unknown }>).map((row) => ({ id: Number(row.id), documentId: String(row.document_id) }));
