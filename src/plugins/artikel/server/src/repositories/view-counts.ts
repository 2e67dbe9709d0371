import type { Core } from '@strapi/strapi';
import { TABLES } from '../constants';
import { isSqlite } from '../infrastructure/database-dialect';
import { database, readDatabase } from '../infrastructure/transactions';
import { INSERT_BATCH_ROWS } from '../infrastructure/row-limits';
import { newDocumentId } from '../utils/document-id';

type CountRow = { views: number | string };
type RawResult = { rows?: CountRow[] } | CountRow[];

// Rows of views added in one statement (three values each).
const ADD_BATCH = 300;

function rowsOf(result: RawResult): CountRow[] {
  return Array.isArray(result) ? result : (result.rows ?? []);
}

/**
 * The rows of the content type plugin::artikel.view-count (table artikel_view_counts), one per
 * article document, written here with SQL so that a read adds its view in one atomic statement.
 * Strapi's own columns are filled as the Document Service fills them for a type without Draft &
 * Publish: a documentId, created_at, updated_at and published_at (set: such a row is always
 * published), stored as epoch milliseconds on SQLite and as timestamps on PostgreSQL.
 */
export function viewCounts(strapi: Core.Strapi) {
  const knex = () => database(strapi);
  const now = (): Date | number => (isSqlite(strapi) ? Date.now() : new Date());

  return {
    /** Adds one view and returns the new count, in one statement (SQLite 3.35+ and PostgreSQL). */
    async increment(articleDocumentId: string): Promise<number> {
      const at = now();
      const result = (await knex().raw(
        `INSERT INTO ${TABLES.viewCounts} (document_id, article_document_id, views, created_at, updated_at, published_at)
         VALUES (?, ?, 1, ?, ?, ?)
         ON CONFLICT (article_document_id) DO UPDATE SET views = ${TABLES.viewCounts}.views + 1, updated_at = excluded.updated_at
         RETURNING views`,
        [newDocumentId(), articleDocumentId, at, at, at],
      )) as RawResult;
      return Number(rowsOf(result)[0]?.views ?? 1);
    },

    /**
     * Adds these views to their articles' counts, in one transaction; an article deleted meanwhile
     * gets no row.
     */
    async add(viewsByArticle: Map<string, number>): Promise<void> {
      const entries = [...viewsByArticle];
      await knex().transaction(async (trx) => {
        for (let start = 0; start < entries.length; start += ADD_BATCH) {
          const batch = entries.slice(start, start + ADD_BATCH);
          const at = now();
          await trx.raw(
            `INSERT INTO ${TABLES.viewCounts} (document_id, article_document_id, views, created_at, updated_at, published_at)
             SELECT n.column1, n.column2, n.column3, ?, ?, ? FROM (VALUES ${batch.map(() => '(?, ?, CAST(? AS INTEGER))').join(', ')}) AS n
             WHERE EXISTS (SELECT 1 FROM ${TABLES.articles} a WHERE a.document_id = n.column2)
             ON CONFLICT (article_document_id) DO UPDATE SET views = ${TABLES.viewCounts}.views + excluded.views, updated_at = excluded.updated_at`,
            [at, at, at, ...batch.flatMap(([articleDocumentId, views]) => [newDocumentId(), articleDocumentId, views])],
          );
        }
      });
    },

    /** The stored counts of these articles; an article never read has no row. */
    async countsOf(articleDocumentIds: string[]): Promise<Map<string, number>> {
      const counts = new Map<string, number>();
      for (let start = 0; start < articleDocumentIds.length; start += INSERT_BATCH_ROWS) {
        const rows = (await readDatabase(strapi)(TABLES.viewCounts)
          .select('article_document_id', 'views')
          .whereIn('article_document_id', articleDocumentIds.slice(start, start + INSERT_BATCH_ROWS))) as Array<{
          article_document_id: string;
          views: number | string | null;
        }>;
        for (const row of rows)
          counts.set(row.article_document_id, Math.max(counts.get(row.article_document_id) ?? 0, Number(row.views ?? 0)));
      }
      return counts;
    },

    /**
     * Keeps one row per article, the one with the most views: rows written past the unique index
     * (before it existed, or by the Document Service). Returns how many were removed.
     */
    async removeDuplicates(): Promise<number> {
      const table = TABLES.viewCounts;
      const result = (await knex().raw(
        `DELETE FROM ${table} WHERE article_document_id IS NULL OR EXISTS (SELECT 1 FROM ${table} o WHERE o.article_document_id = ${table}.article_document_id
           AND (COALESCE(o.views, 0) > COALESCE(${table}.views, 0) OR (COALESCE(o.views, 0) = COALESCE(${table}.views, 0) AND o.id < ${table}.id)))`,
      )) as { rowCount?: number; changes?: number };
      return Number(result?.rowCount ?? result?.changes ?? 0);
    },

    /** Removes an article's count, in the transaction the caller is in (the delete's). */
    async remove(articleDocumentId: string): Promise<void> {
      await knex()(TABLES.viewCounts).where({ article_document_id: articleDocumentId }).delete();
    },

    /**
     * Moves the counts of the table views lived in before they were a content type (artikel_views:
     * document_id, views) into the content type's table and drops the old one, in one transaction,
     * so it happens once; a count already in the new table keeps the larger of the two. Returns how
     * many counts were moved (0 when there is no old table).
     */
    async moveLegacyCounts(): Promise<number> {
      if (!(await knex().schema.hasTable(TABLES.legacyViews))) return 0;
      return knex().transaction(async (trx) => {
        const rows = (await trx(TABLES.legacyViews).select('document_id', 'views').orderBy('document_id')) as Array<{
          document_id: string;
          views: number | string;
        }>;
        for (let start = 0; start < rows.length; start += INSERT_BATCH_ROWS) {
          const at = now();
          const batch = rows.slice(start, start + INSERT_BATCH_ROWS).map((row) => ({
            document_id: newDocumentId(),
            article_document_id: row.document_id,
            views: Number(row.views),
            created_at: at,
            updated_at: at,
            published_at: at,
          }));
          await trx(TABLES.viewCounts)
            .insert(batch)
            .onConflict('article_document_id')
            .merge({
              views: trx.raw(
                `CASE WHEN excluded.views > ${TABLES.viewCounts}.views THEN excluded.views ELSE ${TABLES.viewCounts}.views END`,
              ),
            });
        }
        await trx.schema.dropTable(TABLES.legacyViews);
        return rows.length;
      });
    },
  };
}
