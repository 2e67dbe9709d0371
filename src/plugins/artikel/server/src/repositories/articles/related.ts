import { RELATED_CANDIDATES_PER_TAG, TABLES } from '../../constants';
import type { RelatedRank } from '../../domain/related-ranking';
import { indexComplete } from '../../infrastructure/index-state';
import { firstRow, limitRows } from '../../infrastructure/row-limits';
import type { RawSql } from '../../infrastructure/transactions';
import { toEpochMs } from '../../utils/dates';
import { hasTagByScan } from '../tags';
import type { PublishedRows } from './published-rows';
import { type ArticleRecord, documentIdsOf, parseSummaryRow, type SummaryRow } from './rows';

/** Related articles: ranked by shared tags, the candidates a publish pushes out, and the newest to fill the places left. */
export const relatedArticles = ({ strapi, knex, sqlite, publishedRows, published, newestFirst, summaryRows }: PublishedRows) => ({
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
    // Only the candidates sharing at least as many tags as the limit-th most sharing can be chosen
    // (ties included), so only they are looked up in the articles and sorted: at 10,000 articles
    // six tags give about 250 candidates, most sharing one tag, and the query took 1.54 instead
    // of 0.88 ms (warm, the mean over 37 articles).
    const mostSharing = knex().raw(
      `(WITH counted AS MATERIALIZED ? SELECT document_id, shared FROM counted WHERE shared >= COALESCE((SELECT shared FROM counted ORDER BY shared DESC LIMIT 1 OFFSET ?), 0))`,
      [sharing, Math.max(0, limit - 1)],
    );
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
        .join(knex().raw('? AS s', [mostSharing]), 's.document_id', 'a.document_id')
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
});
