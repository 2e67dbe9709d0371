import type { Core } from '@strapi/strapi';
import { articleVersion } from '../repositories/article-versions';
import { oldSlugs } from '../repositories/old-slugs';
import { articleWithSlug } from '../repositories/slug-rows';
import { errors } from '@strapi/utils';
import { ARTICLE_UID, LATEST_COUNT, PLUGIN_ID, RELATED_COUNT } from '../constants';
import {
  type ArticleCount,
  type ArticleFilters,
  type ArticleRecord,
  EVERY_ARTICLE,
  type PageStart,
  publishedArticles,
} from '../repositories/articles';
import { type ArticleSummary, type FullArticle, type RecordContext, toArticleSummary, toFullArticle } from '../presenters/article-records';
import type { ListPosition, PageLink } from '../domain/list-cursor';
import { getConfig, getService } from '../infrastructure/get-service';
import { CATEGORY_NAMES, PUBLISHED, type ReadDependencies, type ReadScope, categoryScope, documentScope, tagScope } from './read-cache';
import { type TagChoice, tagChoiceChangedBy } from '../domain/related-ranking';
import { foldCase, mayFind } from '../utils/search-words';
import { parseTags, tagKey } from '../utils/tags';
import type { ListQuery, ListSort } from '../validation/read-queries';
import { type Highlight, highlightOf } from '../utils/highlight';
import type { ArticleViewsService } from './types';
import { quotedText } from '../utils/quoted-text';
import { articleMarkdown } from '../presenters/other-representations';
import { recordContext as contextOfRecords } from './record-context';
import { TextWorkFailure, renderedContentHtml, textWork } from '../infrastructure/text-work';

// Rows of the admin home page's "most read" widget.
const MOST_READ_COUNT = 10;

export interface CategoryWithCount {
  name: string;
  slug: string;
  article_count: number;
}

/** A list's item: an article summary, with its highlight in a search (contract, "Search and discovery"). */
export type ListedArticle = ArticleSummary & { highlight?: Highlight };

export interface ArticleList {
  data: ListedArticle[];
  meta: {
    /** total_exact: whether total is exact; false past ARTIKEL_EXACT_TOTAL matches, where total is that lower bound and page_count follows it. */
    pagination: { page: number; limit: number; total: number; total_exact: boolean; page_count: number };
    /** What the list is sorted by, when the request named it. */
    sort?: ListSort;
    /** With q: "did you mean" when the search found nothing (see search-suggestions), else null. */
    suggestion?: string | null;
  };
  /**
   * Newest first, the next page is always past a cursor, the previous one by number, by a cursor,
   * or the first page; sorted by relevance or views, both are by number.
   */
  paging: { next: { cursor: string } | { page: number } | null; prev: PageLink | null };
}

/** A list's page as remembered: its articles, its number along the walk, and whether it has neighbours. */
interface ListPage {
  data: ListedArticle[];
  number: number;
  total: number;
  /** Whether total is exact, or a lower bound (see ArticleCount). */
  totalExact: boolean;
  pageCount: number;
  hasNext: boolean;
  hasPrevious: boolean;
  /** Where its first and last articles stand, for the cursors to its neighbours; null when it is empty. */
  ends: { first: ListPosition; last: ListPosition } | null;
  /** See ArticleList's meta.suggestion; null without q. */
  suggestion: string | null;
}

/** Articles read per query of a whole export: a read holds this many rows in memory at once, whatever the export's size. */
const EXPORT_PAGE = 500;

/** Where an article stands in the list's order (see domain/list-cursor.ts). */
const positionOf = (record: ArticleRecord): ListPosition => ({
  publishedMs: Date.parse(record.publishedAt ?? ''),
  createdMs: Date.parse(record.createdAt),
  documentId: record.documentId,
});

/** An article as related articles are chosen for it. */
interface RelatedKey {
  documentId: string;
  tags: string | null;
  categoryId: number | null;
}

/** A published article's page as remembered: everything but view counts and related articles, which other articles' writes change. */
interface RememberedPage {
  article: FullArticle;
  relatedKey: RelatedKey;
}

const filtersOf = (query: ListQuery): ArticleFilters => ({
  words: query.words,
  category: query.kategori,
  tagKey: query.tag === null ? null : tagKey(query.tag),
});

/**
 * The number of the page before a page: past the end, the last page with articles. A lower-bound
 * total's last page is no last page: there the page before is the previous one.
 */
const previousPageNumber = (page: { number: number; totalExact: boolean; pageCount: number }): number =>
  page.totalExact ? Math.min(page.number - 1, Math.max(page.pageCount, 1)) : page.number - 1;

/**
 * Public reads: the published articles from the repository, shaped into the contract's records,
 * remembered in the read cache, with current view counts laid over them.
 */
const articleReads = ({ strapi }: { strapi: Core.Strapi }) => {
  const articles = publishedArticles(strapi);
  const views = (): ArticleViewsService => strapi.plugin(PLUGIN_ID).service('article-views') as ArticleViewsService;

  const recordContext = (): RecordContext =>
    contextOfRecords(strapi, {
      mediaBaseUrl: (strapi.config.get('server.url') as string | undefined) ?? '',
      articleUrlPattern: getConfig(strapi, 'siteArticleUrl'),
    });

  const summariesOf = (records: ArticleRecord[]): ArticleSummary[] => {
    const context = recordContext();
    return records.map((record) => toArticleSummary(record, context));
  };

  /** A list's items: with the search's words, each carries its highlight. */
  const listedOf = (records: ArticleRecord[], words: string[]): ListedArticle[] => {
    const summaries = summariesOf(records);
    if (words.length === 0) return summaries;
    return summaries.map((summary, index) => ({ ...summary, highlight: highlightOf(records[index], words) }));
  };

  /** "Did you mean", for a search (q) that found nothing; null otherwise, and for a search that found articles. */
  const suggestionFor = async (filters: ArticleFilters, total: number): Promise<string | null> =>
    filters.words.length === 0 || total > 0 ? null : getService(strapi, 'search-suggestions').suggest(filters);

  /**
   * Ranked by shared tags, then same category, then newest; filled with the category's and then any
   * newest; never the article itself. With what the choice depends on: the articles chosen, the
   * article itself, which writes of other articles change the choice by tags (see
   * tagChoiceChangedBy), its category only when the category's newest filled it, and the published
   * set only when the newest of all did.
   */
  const relatedTo = async (article: RelatedKey): Promise<{ related: ArticleSummary[]; dependencies: ReadDependencies }> => {
    const tagKeys = parseTags(article.tags).map(tagKey);
    const byTags = await articles.sharingTags({ documentId: article.documentId, tagKeys, categoryId: article.categoryId }, RELATED_COUNT);
    const chosen = byTags.map((candidate) => candidate.record.documentId);
    const choice: TagChoice = {
      tagKeys,
      categoryId: article.categoryId,
      chosen: [...chosen],
      lastRank: chosen.length === RELATED_COUNT ? byTags[RELATED_COUNT - 1].rank : null,
    };
    const scopes: ReadScope[] = [documentScope(article.documentId)];
    // The category only orders articles that share a tag; it chooses by itself only when too few share one.
    if (article.categoryId !== null && chosen.length < RELATED_COUNT) {
      scopes.push(categoryScope(article.categoryId));
      chosen.push(...(await articles.newestExcept([article.documentId, ...chosen], article.categoryId, RELATED_COUNT - chosen.length)));
    }
    if (chosen.length < RELATED_COUNT) {
      scopes.push(PUBLISHED);
      chosen.push(...(await articles.newestExcept([article.documentId, ...chosen], null, RELATED_COUNT - chosen.length)));
    }
    // The fill's summaries are read by id; those chosen by tags came with their ranking.
    const fill = await articles.byDocumentIds(chosen.slice(byTags.length));
    return {
      related: summariesOf([...byTags.map((candidate) => candidate.record), ...fill]),
      dependencies: { scopes: [...scopes, ...chosen.map(documentScope)], changedBy: (write) => tagChoiceChangedBy(choice, write) },
    };
  };

  const contentHtmlOf = (content: string): Promise<string> => renderedContentHtml(content, (message) => strapi.log.warn(message));

  const cache = () => getService(strapi, 'read-cache');

  /**
   * What a list depends on: with a category filter, only the articles in the categories it names
   * (whatever else it is narrowed by) and which categories its name names (a new category can take
   * the name as its slug, or the other way round); else with a tag filter, the articles with the
   * tag; else with words, the articles a search for them may find before or after their write;
   * else the whole published set.
   */
  const listDependencies = async (filters: ArticleFilters): Promise<ReadDependencies> => {
    if (filters.category !== null) return [CATEGORY_NAMES, ...(await articles.categoryIdsNamed(filters.category)).map(categoryScope)];
    if (filters.tagKey !== null) return [tagScope(filters.tagKey)];
    if (filters.words.length === 0) return [PUBLISHED];
    return {
      scopes: [],
      changedBy: (write) => write.texts === undefined || write.texts.some((text) => mayFind(filters.words, text)),
      testKey: `search:${JSON.stringify(filters.words.map(foldCase).sort())}`,
    };
  };

  /**
   * Summaries with their current view counts laid over the remembered ones. Summaries read in this
   * request (`readNow`, see rememberSummaries) already hold the counts their rows were read with,
   * current where every count is written at once (see ArticleViews.rowsHoldEveryView): on
   * PostgreSQL a round trip fewer for each uncached list, search, latest and related list.
   */
  const withCurrentViews = async <Summary extends ArticleSummary>(summaries: Summary[], readNow = false): Promise<Summary[]> => {
    if (summaries.length === 0 || (readNow && views().rowsHoldEveryView())) return summaries;
    const counts = await views().viewsOf(summaries.map((summary) => summary.id));
    return summaries.map((summary) => ({ ...summary, views: counts.get(summary.id) ?? 0 }));
  };

  /**
   * cache().remember for a read whose value holds summaries, with whether this call read them
   * (`readNow`, see withCurrentViews): false where the value was remembered, or computed for
   * another request that this one joined.
   */
  const rememberSummaries = async <T>(
    key: string,
    compute: () => Promise<T>,
    dependenciesOf?: (value: T) => ReadDependencies,
  ): Promise<{ value: T; readNow: boolean }> => {
    let readNow = false;
    const value = await cache().remember(
      key,
      () => {
        readNow = true;
        return compute();
      },
      dependenciesOf,
    );
    return { value, readNow };
  };

  /**
   * A page from where it starts. One article more than a page is read past a position, to know
   * whether another page follows. A page before a position that reaches the top of the list is the
   * first page itself (fewer articles than a page are newer than the position: new ones were
   * published at the top, or some were removed).
   */
  const listPage = async (
    filters: ArticleFilters,
    limit: number,
    start: PageStart,
    counted: ArticleCount,
    number: number,
  ): Promise<ListPage> => {
    const { total, exact } = counted;
    const pageCount = Math.ceil(total / limit);
    const suggestion = await suggestionFor(filters, total);
    const pageOf = (records: ArticleRecord[], hasNext: boolean, hasPrevious: boolean): ListPage => ({
      data: listedOf(records, filters.words),
      number,
      total,
      totalExact: exact,
      pageCount,
      hasNext,
      hasPrevious,
      ends: records.length === 0 ? null : { first: positionOf(records[0]), last: positionOf(records[records.length - 1]) },
      suggestion,
    });
    if ('offset' in start && exact) {
      const records = start.offset >= total ? [] : await articles.newest(filters, limit, start, total);
      return pageOf(records, records.length > 0 && start.offset + records.length < total, number > 1);
    }
    // Past a position, or where the total is only a lower bound: one article more says whether another page follows.
    const read = await articles.newest(filters, limit + 1, start, exact ? total : undefined);
    if (!('before' in start)) return pageOf(read.slice(0, limit), read.length > limit, 'after' in start || number > 1);
    if (read.length <= limit) return listPage(filters, limit, { offset: 0 }, counted, 1);
    return pageOf(read.slice(1), true, true);
  };

  /**
   * A page of a list sorted by relevance or views, by its number: every match is ordered (by a
   * score or a count that changes without the article being written), so no position in that
   * order can carry a walk across writes, as a cursor does newest first. Its links are page
   * numbers; walking them returns every article once while nothing is written meanwhile.
   * Relevance pages are remembered like other searches; views pages never (every read changes
   * them), and on SQLite the views counted in memory are written first, so the order is exact.
   */
  const rankedPage = async (query: ListQuery, sort: 'relevance' | 'views'): Promise<{ page: ListPage; readNow: boolean }> => {
    const filters = filtersOf(query);
    const { limit, page: number } = query;
    const offset = (number - 1) * limit;
    const compute = async (): Promise<{ page: ListPage; dependencies: ReadDependencies }> => {
      const { counted, records, hasNext } = await articles.ranked(filters, sort, limit, offset, getConfig(strapi, 'exactTotal'));
      return {
        page: {
          data: listedOf(records, filters.words),
          number,
          total: counted.total,
          totalExact: counted.exact,
          pageCount: Math.ceil(counted.total / limit),
          hasNext,
          hasPrevious: number > 1,
          ends: null,
          suggestion: await suggestionFor(filters, counted.total),
        },
        dependencies: await listDependencies(filters),
      };
    };
    if (sort === 'views') {
      await views().flush();
      return { page: (await compute()).page, readNow: true };
    }
    const { value, readNow } = await rememberSummaries(
      `list:${JSON.stringify([filters, limit, { offset }, sort])}`,
      compute,
      (computed) => computed.dependencies,
    );
    return { page: value.page, readNow };
  };

  return {
    /**
     * A page of the list: by number (offset), or past a cursor's position (keyset, see
     * services/list-cursors.ts), with where its neighbours are. The next page is always reached by
     * a cursor after the page's last article, so a walk along next never skips or repeats an article
     * whatever is published meanwhile; the previous one by number, or by a cursor before the first.
     */
    /**
     * Every published article the query matches, newest first, as summaries with their current
     * views (GET /api/artikel/export.csv): read in pages of EXPORT_PAGE along the list's own
     * order, so each page costs what a list page costs. More than `cap` matches is a 400 that names
     * the cap and the paged form, before any page is read.
     */
    async exportAll(query: ListQuery, cap: number): Promise<ArticleSummary[]> {
      const filters = filtersOf(query);
      const { total, exact } = await articles.count(filters, cap);
      // Counted up to the cap where counting costs (a search): past it, not exact; else exact, and maybe over it.
      if (!exact || total > cap) {
        const held = exact ? total.toLocaleString('en-US') : 'more';
        const message = `The export holds at most ${cap.toLocaleString('en-US')} articles and this one would hold ${held}: narrow it with q, kategori or tag, or read every page of /api/artikel?format=csv&limit=50 by following its Link header`;
        throw new errors.ValidationError(message, { errors: [{ path: [], message, name: 'ValidationError' }] });
      }
      const summaries: ArticleSummary[] = [];
      let start: PageStart = { offset: 0 };
      for (;;) {
        const records = await articles.newest(filters, EXPORT_PAGE, start, total);
        summaries.push(...summariesOf(records));
        if (records.length < EXPORT_PAGE || summaries.length >= total) break;
        start = { after: positionOf(records[records.length - 1]) };
      }
      return withCurrentViews(summaries, true);
    },

    async list(query: ListQuery): Promise<ArticleList> {
      const meta = (page: ListPage): ArticleList['meta'] => ({
        pagination: {
          page: page.number,
          limit: query.limit,
          total: page.total,
          total_exact: page.totalExact,
          page_count: page.pageCount,
        },
        ...(query.sortNamed ? { sort: query.sort } : {}),
        ...(query.words.length > 0 ? { suggestion: page.suggestion } : {}),
      });
      if (query.sort !== 'newest') {
        const { page, readNow } = await rankedPage(query, query.sort);
        return {
          data: await withCurrentViews(page.data, readNow),
          meta: meta(page),
          paging: {
            next: page.hasNext ? { page: page.number + 1 } : null,
            prev: page.hasPrevious ? { page: previousPageNumber(page) } : null,
          },
        };
      }
      const cursor = query.cursor === null ? null : getService(strapi, 'list-cursors').open(query.cursor, query);
      const filters = filtersOf(query);
      const { limit } = query;
      const start: PageStart =
        cursor === null
          ? { offset: (query.page - 1) * limit }
          : cursor.direction === 'after'
            ? { after: cursor.position }
            : { before: cursor.position };
      const { value, readNow } = await rememberSummaries(
        `list:${JSON.stringify([filters, limit, start])}`,
        async (): Promise<{ page: ListPage; dependencies: ReadDependencies }> => {
          const counted = await articles.count(filters, getConfig(strapi, 'exactTotal'));
          return {
            page: await listPage(filters, limit, start, counted, cursor?.page ?? query.page),
            dependencies: await listDependencies(filters),
          };
        },
        (computed) => computed.dependencies,
      );
      const { page } = value;
      const data = await withCurrentViews(page.data, readNow);
      const cursors = getService(strapi, 'list-cursors');
      const previousPage = page.number - 1;
      let prev: PageLink | null = null;
      if (page.hasPrevious) {
        // By number from a page by number (see previousPageNumber); else by a cursor before the page's first article.
        if (cursor === null) prev = { page: previousPageNumber(page) };
        else if (previousPage <= 1) prev = 'first';
        else prev = { cursor: cursors.issue('before', page.ends?.first ?? cursor.position, previousPage, query) };
      }
      const next: { cursor: string } | null =
        page.hasNext && page.ends !== null
          ? { cursor: cursors.issue('after', page.ends.last, Math.min(page.number + 1, Number.MAX_SAFE_INTEGER), query) }
          : null;
      return { data, meta: meta(page), paging: { next, prev } };
    },

    /**
     * The most read published articles, as the public list sorted by views shows them first (all
     * time, ties newest first), for the admin home page's widget: each with its document id, for
     * the link to its edit view.
     */
    async mostRead(limit = MOST_READ_COUNT): Promise<Array<{ document_id: string; title: string; slug: string; views: number }>> {
      const { page, readNow } = await rankedPage(
        { words: [], kategori: null, tag: null, limit, page: 1, cursor: null, sort: 'views', sortNamed: true },
        'views',
      );
      return (await withCurrentViews(page.data, readNow)).map((article) => ({
        document_id: article.id,
        title: article.title,
        slug: article.slug,
        views: article.views,
      }));
    },

    async latest(): Promise<ArticleSummary[]> {
      const { value, readNow } = await rememberSummaries('latest', async () =>
        summariesOf(await articles.newest(EVERY_ARTICLE, LATEST_COUNT)),
      );
      return withCurrentViews(value, readNow);
    },

    async categories(): Promise<CategoryWithCount[]> {
      return cache().remember('categories', async () =>
        (await articles.categoryCounts()).map((category) => ({
          name: category.name,
          slug: category.slug,
          article_count: category.articleCount,
        })),
      );
    },

    /**
     * The published article with this slug, counting this read as a view unless told not to (a
     * HEAD). Its page is remembered under its own document, its related articles apart (see
     * relatedTo): a write of another article drops at most the related list.
     */
    async readBySlug(slug: string, { countView }: { countView: boolean }): Promise<FullArticle> {
      const page = await cache().remember(
        `article:${slug}`,
        async (): Promise<RememberedPage | null> => {
          const found = await articles.detailBySlug(slug);
          if (found === null) return null;
          const { record, categoryId } = found;
          return {
            article: toFullArticle(record, [], recordContext(), await contentHtmlOf(record.content)),
            relatedKey: { documentId: record.documentId, tags: record.tags, categoryId },
          };
        },
        (found) => (found === null ? [PUBLISHED] : [documentScope(found.article.id)]),
      );
      if (!page) throw new errors.NotFoundError(`No published article has the slug ${quotedText(slug)}`);
      const id = page.article.id;
      const [viewCount, related] = await Promise.all([
        countView ? views().countView(id) : views().currentViews(id),
        rememberSummaries(
          `related:${id}`,
          () => relatedTo(page.relatedKey),
          (chosen) => chosen.dependencies,
        ),
      ]);
      return { ...page.article, views: viewCount, related: await withCurrentViews(related.value.related, related.readNow) };
    },

    /**
     * A published article as Markdown (see articleMarkdown), remembered for its version: turning a
     * long HTML text into Markdown takes a while (a second for 1 MB, on a thread: see text-work.ts),
     * and it has no view count. HTML that turndown cannot convert in time stays HTML, which Markdown
     * allows as it is (it was sanitized when stored), and is remembered so, not tried again.
     */
    markdownOf(article: FullArticle): Promise<string> {
      return cache().remember(
        `markdown:${article.id}:${article.updated_at}`,
        async () => {
          let content: string;
          try {
            content = await textWork('contentAsMarkdown', article.content);
          } catch (error) {
            if (!(error instanceof TextWorkFailure)) throw error;
            strapi.log.warn(`[artikel] Markdown of ${article.id} keeps its HTML: ${error.message}`);
            content = article.content;
          }
          return articleMarkdown(article, content, getConfig(strapi, 'language'));
        },
        () => [documentScope(article.id)],
      );
    },

    /**
     * Where a published article that moved away from this slug is now: its current slug, or null
     * when no article left this slug or the one that did is not published.
     */
    async movedTo(slug: string): Promise<string | null> {
      const documentId = await oldSlugs(strapi).documentOf(slug);
      if (documentId === null) return null;
      const published = await strapi.documents(ARTICLE_UID).findOne({ documentId, status: 'published', fields: ['slug'] });
      return published?.slug ?? null;
    },

    /**
     * The article whose current slug this is, whatever its status (its live version when it has
     * one), without counting a view: for the tools of agents and editors, never for the public.
     */
    async anyStatusBySlug(slug: string): Promise<FullArticle | null> {
      const documentId = await articleWithSlug(strapi, slug);
      if (documentId === null) return null;
      const live = await strapi.documents(ARTICLE_UID).findOne({ documentId, status: 'published', fields: ['slug'] });
      return this.fullArticle(documentId, live ? 'published' : 'draft');
    },

    /** The article's version (see repositories/article-versions.ts), for the tag of its answers. */
    version(documentId: string): Promise<string | null> {
      return articleVersion(strapi, documentId);
    },

    /** An article as its author just wrote it (a draft included), without counting a view. */
    async fullArticle(documentId: string, status: 'published' | 'draft'): Promise<FullArticle> {
      const found = await articles.detailOfDocument(documentId, status);
      if (found === null) throw new errors.NotFoundError(`No ${status} article has the id "${documentId}"`);
      const { record, categoryId } = found;
      const [viewCount, related, contentHtml] = await Promise.all([
        views().currentViews(documentId),
        relatedTo({ documentId, tags: record.tags, categoryId }),
        contentHtmlOf(record.content),
      ]);
      return toFullArticle({ ...record, views: viewCount }, related.related, recordContext(), contentHtml);
    },
  };
};

export default articleReads;
