import type { Core, Modules } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { ARTICLE_UID, LATEST_COUNT, PLUGIN_ID, RELATED_CANDIDATES_PER_TAG, RELATED_COUNT, TABLES } from '../constants';
import {
  type ArticleDetailRecord,
  type ArticleRecord,
  type ArticleSummary,
  type FullArticle,
  type RecordContext,
  toArticleSummary,
  toFullArticle,
  toIsoString,
} from '../utils/article-records';
import { searchIndex } from '../repositories/search';
import { database } from '../repositories/transactions';
import { getService } from '../utils/get-service';
import { parseTags, tagKey } from '../utils/tags';
import type { ListQuery } from '../validation/read-queries';
import type { ArticleViewsService } from './types';

type Knex = Core.Strapi['db']['connection'];
type QueryBuilder = ReturnType<Knex>;

interface SummaryRow {
  document_id: string;
  title: string;
  slug: string;
  summary: string | null;
  content: string | null;
  tags: string | null;
  cover_image_url: string | null;
  cover_media_url: string | null;
  author: string | null;
  views: number | string | null;
  category_name: string | null;
  category_slug: string | null;
  published_at: unknown;
  updated_at: unknown;
  created_at: unknown;
}

const DETAIL_POPULATE: Modules.Documents.Params.Populate.Any<typeof ARTICLE_UID> = {
  category: { fields: ['name', 'slug'] },
  cover: { fields: ['url'] },
  gallery: { fields: ['url', 'alternativeText', 'caption', 'width', 'height'] },
};

type ArticleDocument = NonNullable<Awaited<ReturnType<Modules.Documents.ServiceInstance<typeof ARTICLE_UID>['findOne']>>> & {
  category?: { id: number | string; documentId: string; name?: string | null; slug?: string | null } | null;
  cover?: { url: string } | null;
  gallery?: Array<{ url: string; alternativeText?: string | null; caption?: string | null; width?: number | null; height?: number | null }> | null;
};

export interface CategoryWithCount {
  name: string;
  slug: string;
  article_count: number;
}

export interface ArticleList {
  data: ArticleSummary[];
  meta: { pagination: { page: number; limit: number; total: number; page_count: number } };
}

function toRecord(row: SummaryRow): ArticleRecord {
  return {
    documentId: row.document_id,
    title: row.title ?? '',
    slug: row.slug ?? '',
    summary: row.summary,
    content: row.content ?? '',
    tags: row.tags,
    coverImageUrl: row.cover_image_url,
    coverMediaUrl: row.cover_media_url,
    author: row.author,
    views: Number(row.views ?? 0),
    category: row.category_name === null ? null : { name: row.category_name, slug: row.category_slug ?? '' },
    publishedAt: toIsoString(row.published_at),
    updatedAt: toIsoString(row.updated_at) ?? '',
    createdAt: toIsoString(row.created_at) ?? '',
  };
}

/**
 * Public reads. The list, latest, related and category counts are raw queries because the
 * Document Service's $containsi does not escape LIKE wildcards, cannot match a whole tag and cannot
 * count per category in one query; every one of them reads published rows only.
 */
const articleReads = ({ strapi }: { strapi: Core.Strapi }) => {
  const knex = (): Knex => database(strapi);
  const views = (): ArticleViewsService => strapi.plugin(PLUGIN_ID).service('article-views') as ArticleViewsService;

  const recordContext = (): RecordContext => ({
    studioName: strapi.plugin(PLUGIN_ID).config('studioName') as string,
    mediaBaseUrl: (strapi.config.get('server.url') as string | undefined) ?? '',
  });

  /** Published articles joined to their category; the base of every summary query. */
  const publishedArticles = (): QueryBuilder =>
    knex()({ a: TABLES.articles })
      .leftJoin({ l: TABLES.articleCategoryLinks }, 'l.article_id', 'a.id')
      .leftJoin({ c: TABLES.categories }, 'c.id', 'l.category_id')
      .whereNotNull('a.published_at');

  const selectSummaries = (query: QueryBuilder): QueryBuilder =>
    query
      .leftJoin({ v: TABLES.viewCounts }, 'v.article_document_id', 'a.document_id')
      .leftJoin({ fr: TABLES.mediaLinks }, (join) => {
        join
          .on('fr.related_id', '=', 'a.id')
          .andOn('fr.related_type', '=', knex().raw('?', [ARTICLE_UID]))
          .andOn('fr.field', '=', knex().raw('?', ['cover']));
      })
      .leftJoin({ f: TABLES.files }, 'f.id', 'fr.file_id')
      .select(
        'a.document_id',
        'a.title',
        'a.slug',
        'a.summary',
        'a.content',
        'a.tags',
        'a.cover_image_url',
        'a.author',
        'a.published_at',
        'a.updated_at',
        'a.created_at',
        'c.name as category_name',
        'c.slug as category_slug',
        'v.views as views',
        'f.url as cover_media_url',
      );

  const newestFirst = (query: QueryBuilder): QueryBuilder =>
    query.orderBy([
      { column: 'a.published_at', order: 'desc' },
      { column: 'a.created_at', order: 'desc' },
      { column: 'a.id', order: 'desc' },
    ]);

  const applyFilters = (query: QueryBuilder, filters: ListQuery): QueryBuilder => {
    searchIndex(strapi).filter(query, filters.words);
    if (filters.kategori !== null) {
      const category = filters.kategori.toLowerCase();
      query.where((clause) => {
        clause.whereRaw('LOWER(c.name) = ?', [category]).orWhereRaw('LOWER(c.slug) = ?', [category]);
      });
    }
    if (filters.tag !== null) {
      query.whereExists(
        knex()({ t: TABLES.tags })
          .select(knex().raw('1'))
          .whereRaw('t.document_id = a.document_id')
          .andWhere('t.tag', tagKey(filters.tag)),
      );
    }
    return query;
  };

  const summariesOf = async (query: QueryBuilder): Promise<ArticleSummary[]> => {
    const rows = (await selectSummaries(query)) as SummaryRow[];
    const context = recordContext();
    return rows.map((row) => toArticleSummary(toRecord(row), context));
  };

  const summariesByDocumentId = async (documentIds: string[]): Promise<ArticleSummary[]> => {
    if (documentIds.length === 0) return [];
    const summaries = await summariesOf(publishedArticles().whereIn('a.document_id', documentIds));
    const byId = new Map(summaries.map((summary) => [summary.id, summary]));
    return documentIds.flatMap((id) => byId.get(id) ?? []);
  };

  /** Ranked by shared tags, then same category, then newest; never the article itself. */
  const relatedTo = async (article: { documentId: string; tags: string | null; categoryId: number | null }): Promise<ArticleSummary[]> => {
    const chosen: string[] = [];
    const keys = parseTags(article.tags).map(tagKey);
    // Without a category there is no tie-break by it: a bare 0 in ORDER BY would name a column (an error).
    const sameCategory = knex().raw(article.categoryId === null ? 'CASE WHEN 1 = 0 THEN 1 ELSE 0 END' : 'CASE WHEN l.category_id = ? THEN 1 ELSE 0 END', article.categoryId === null ? [] : [article.categoryId]);

    if (keys.length > 0) {
      // The newest RELATED_CANDIDATES_PER_TAG articles of each tag are the candidates, so the cost of
      // ranking does not grow with the archive; a UNION of per-tag LIMITs has no query-builder form.
      const candidates = keys
        // PostgreSQL needs an alias on every subquery in FROM.
        .map((_key, index) => `SELECT * FROM (SELECT document_id FROM ${TABLES.tags} WHERE tag = ? AND document_id <> ? ORDER BY published_at DESC LIMIT ${RELATED_CANDIDATES_PER_TAG}) AS tag_${index}`)
        .join(' UNION ');
      const sharing = (await publishedArticles()
        .join(
          knex()(TABLES.tags).select('document_id').count({ shared: '*' }).whereIn('tag', keys)
            .whereRaw(`document_id IN (${candidates})`, keys.flatMap((key) => [key, article.documentId]))
            .groupBy('document_id')
            .as('s'),
          's.document_id',
          'a.document_id',
        )
        .select('a.document_id')
        .orderBy([{ column: 's.shared', order: 'desc' }])
        .orderByRaw('? DESC', [sameCategory])
        .orderBy([
          { column: 'a.published_at', order: 'desc' },
          { column: 'a.created_at', order: 'desc' },
        ])
        .limit(RELATED_COUNT)) as Array<{ document_id: string }>;
      chosen.push(...sharing.map((row) => row.document_id));
    }

    const fill = async (restrict: (query: QueryBuilder) => QueryBuilder) => {
      if (chosen.length >= RELATED_COUNT) return;
      const rows = (await newestFirst(restrict(publishedArticles()))
        .whereNotIn('a.document_id', [article.documentId, ...chosen])
        .select('a.document_id')
        .limit(RELATED_COUNT - chosen.length)) as Array<{ document_id: string }>;
      chosen.push(...rows.map((row) => row.document_id));
    };
    if (article.categoryId !== null) await fill((query) => query.where('l.category_id', article.categoryId));
    await fill((query) => query);

    return summariesByDocumentId(chosen);
  };

  const fullArticleOf = async (document: ArticleDocument, viewCount: number): Promise<FullArticle> => {
    const record: ArticleDetailRecord = {
      documentId: document.documentId,
      title: document.title ?? '',
      slug: document.slug ?? '',
      summary: document.summary ?? null,
      content: document.content ?? '',
      tags: document.tags ?? null,
      coverImageUrl: document.cover_image_url ?? null,
      coverMediaUrl: document.cover?.url ?? null,
      author: document.author ?? null,
      views: viewCount,
      category: document.category ? { name: document.category.name ?? '', slug: document.category.slug ?? '' } : null,
      publishedAt: toIsoString(document.publishedAt),
      updatedAt: toIsoString(document.updatedAt) ?? '',
      createdAt: toIsoString(document.createdAt) ?? '',
      metaTitle: document.meta_title ?? null,
      metaDescription: document.meta_description ?? null,
      metaKeywords: document.meta_keywords ?? null,
      gallery: (document.gallery ?? []).map((image) => ({
        url: image.url,
        alternativeText: image.alternativeText ?? null,
        caption: image.caption ?? null,
        width: image.width ?? null,
        height: image.height ?? null,
      })),
    };
    const related = await relatedTo({ documentId: document.documentId, tags: record.tags, categoryId: document.category ? Number(document.category.id) : null });
    return toFullArticle(record, related, recordContext());
  };

  const cache = () => getService(strapi, 'read-cache');

  /** Summaries with their current view counts laid over the remembered ones. */
  const withCurrentViews = async (summaries: ArticleSummary[]): Promise<ArticleSummary[]> => {
    if (summaries.length === 0) return summaries;
    const counts = await views().viewsOf(summaries.map((summary) => summary.id));
    return summaries.map((summary) => ({ ...summary, views: counts.get(summary.id) ?? 0 }));
  };

  return {
    async list(filters: ListQuery): Promise<ArticleList> {
      const page = await cache().remember(`list:${JSON.stringify(filters)}`, async (): Promise<ArticleList> => {
        const countRow = (await applyFilters(publishedArticles(), filters).count({ total: '*' }).first()) as { total: number | string } | undefined;
        const total = Number(countRow?.total ?? 0);
        const offset = (filters.page - 1) * filters.limit;
        const data = offset >= total ? [] : await summariesOf(newestFirst(applyFilters(publishedArticles(), filters)).limit(filters.limit).offset(offset));
        return {
          data,
          meta: { pagination: { page: filters.page, limit: filters.limit, total, page_count: Math.ceil(total / filters.limit) } },
        };
      });
      return { data: await withCurrentViews(page.data), meta: page.meta };
    },

    async latest(): Promise<ArticleSummary[]> {
      return withCurrentViews(await cache().remember('latest', () => summariesOf(newestFirst(publishedArticles()).limit(LATEST_COUNT))));
    },

    async categories(): Promise<CategoryWithCount[]> {
      return cache().remember('categories', async () => {
        const rows = (await knex()({ c: TABLES.categories })
          .leftJoin({ l: TABLES.articleCategoryLinks }, 'l.category_id', 'c.id')
          .leftJoin({ a: TABLES.articles }, (join) => {
            join.on('a.id', '=', 'l.article_id').andOnNotNull('a.published_at');
          })
          .select('c.name', 'c.slug')
          .count({ article_count: 'a.id' })
          .groupBy('c.id', 'c.name', 'c.slug')
          .orderByRaw('LOWER(c.name) ASC')) as Array<{ name: string; slug: string | null; article_count: number | string }>;
        return rows.map((row) => ({ name: row.name, slug: row.slug ?? '', article_count: Number(row.article_count) }));
      });
    },

    /** The published article with this slug, counting this read as a view. */
    async readBySlug(slug: string): Promise<FullArticle> {
      const article = await cache().remember(`article:${slug}`, async () => {
        const document = await strapi.documents(ARTICLE_UID).findFirst({ filters: { slug: { $eq: slug } }, status: 'published', populate: DETAIL_POPULATE });
        return document ? fullArticleOf(document, 0) : null;
      });
      if (!article) throw new errors.NotFoundError(`No published article has the slug "${slug}"`);
      const viewCount = await views().countView(article.id);
      return { ...article, views: viewCount, related: await withCurrentViews(article.related) };
    },

    /** An article as its author just wrote it (a draft included), without counting a view. */
    async fullArticle(documentId: string, status: 'published' | 'draft'): Promise<FullArticle> {
      const document = await strapi.documents(ARTICLE_UID).findOne({ documentId, status, populate: DETAIL_POPULATE });
      if (!document) throw new errors.NotFoundError(`No ${status} article has the id "${documentId}"`);
      return fullArticleOf(document, await views().currentViews(documentId));
    },
  };
};

export default articleReads;
