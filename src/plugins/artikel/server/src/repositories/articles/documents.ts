import { TABLES } from '../../constants';
import type { ArticlePlace } from '../../domain/written-scope';
import { firstRow } from '../../infrastructure/row-limits';
import { readFixedRows } from '../../infrastructure/transactions';
import { toEpochMs, toIsoString } from '../../utils/dates';
import { searchableText } from '../../utils/search-words';
import { parseTags, tagKey } from '../../utils/tags';
import type { PublishedRows } from './published-rows';
import { DETAIL_BY_SLUG, DETAIL_OF_DOCUMENT, GALLERY_OF } from './queries';
import {
  type ArticleDetailRecord,
  type ArticleRecord,
  type DetailRow,
  type GalleryRow,
  type MediaRecord,
  parseGalleryRow,
  parseSummaryRow,
} from './rows';

/** A published article's row, where it stands among the published, its times, and its text as searches find it (see searchableText). */
export interface PublishedVersion extends ArticlePlace {
  rowId: number;
  publishedAt: number;
  createdAt: number;
  searchableText: string;
}

/** An article's detail record, and its category's id (which chooses its related articles). */
export interface ArticleDetail {
  record: ArticleDetailRecord;
  categoryId: number | null;
}

/** Single articles: by document (published, or either version with its detail), by slug, and a given set of documents. */
export const articleDocuments = ({ strapi, publishedRows, summariesInOrder }: PublishedRows) => {
  /** An article's gallery, in the order the editor gave it. */
  const galleryOf = async (articleId: number): Promise<MediaRecord[]> =>
    ((await readFixedRows(strapi, GALLERY_OF, [articleId])) as GalleryRow[]).map(parseGalleryRow);

  const detailOf = async (row: DetailRow): Promise<ArticleDetail> => ({
    record: {
      ...parseSummaryRow(row),
      metaTitle: row.meta_title,
      metaDescription: row.meta_description,
      metaKeywords: row.meta_keywords,
      gallery: await galleryOf(Number(row.id)),
    },
    categoryId: row.category_id === null ? null : Number(row.category_id),
  });

  return {
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
    async detailBySlug(slug: string): Promise<ArticleDetail | null> {
      const [row] = (await readFixedRows(strapi, DETAIL_BY_SLUG, [slug])) as DetailRow[];
      return row === undefined ? null : detailOf(row);
    },

    /**
     * A document's draft or published version as its detail (with its schedule), in the current
     * transaction: what a write answers with. One read and its gallery's, where the Document
     * Service's findOne with populate took four and about a millisecond of the event loop.
     */
    async detailOfDocument(documentId: string, status: 'draft' | 'published'): Promise<ArticleDetail | null> {
      const [row] = (await readFixedRows(strapi, DETAIL_OF_DOCUMENT[status], [documentId])) as DetailRow[];
      if (row === undefined) return null;
      const { record, categoryId } = await detailOf(row);
      return { record: { ...record, publishAt: toIsoString(row.publish_at) }, categoryId };
    },

    /** The published articles of these documents, in the order given (unpublished ones left out). */
    byDocumentIds: (documentIds: string[]): Promise<ArticleRecord[]> => summariesInOrder(documentIds),
  };
};
