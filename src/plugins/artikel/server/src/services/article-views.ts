import type { Core } from '@strapi/strapi';
import { LRUCache } from 'lru-cache';
import { TABLES } from '../constants';
import { inTransaction } from '../repositories/transactions';
import { isSqlite } from '../utils/database-dialect';

type RawResult = { rows?: Array<{ views: number | string }> } | Array<{ views: number | string }>;

// A count is a few bytes; this covers every article of a large site, so reads rarely go to the table.
const REMEMBERED_COUNTS = 200_000;

function rowsOf(result: RawResult): Array<{ views: number | string }> {
  return Array.isArray(result) ? result : result.rows ?? [];
}

/**
 * View counts, stored in artikel_views. On SQLite they are also remembered in the process: one
 * process serves the file and counts change only through this service, so the remembered ones are
 * exact. Every count written is kept as the larger of the old and new value, because counts only
 * grow and concurrent reads may answer out of order. On PostgreSQL other instances count too, so
 * counts are always read from the table.
 */
const articleViews = ({ strapi }: { strapi: Core.Strapi }) => {
  const remembered = new LRUCache<string, number>({ max: REMEMBERED_COUNTS });
  const onlyCounter = isSqlite(strapi);
  // Bumped by forget(), so a read that began before a count was dropped cannot bring it back.
  let generation = 0;

  const remember = (documentId: string, views: number): void => {
    if (onlyCounter) remembered.set(documentId, Math.max(remembered.get(documentId) ?? 0, views));
  };

  return {
    /** Adds one view and returns the new count, in one atomic statement (SQLite 3.35+ and PostgreSQL). */
    async countView(documentId: string): Promise<number> {
      // An upsert with RETURNING is one statement; the query builder would need a read and a write.
      const result = (await strapi.db.connection.raw(
        `INSERT INTO ${TABLES.views} (document_id, views) VALUES (?, 1)
         ON CONFLICT (document_id) DO UPDATE SET views = ${TABLES.views}.views + 1
         RETURNING views`,
        [documentId],
      )) as RawResult;
      const views = Number(rowsOf(result)[0]?.views ?? 1);
      remember(documentId, views);
      return views;
    },

    async currentViews(documentId: string): Promise<number> {
      return (await this.viewsOf([documentId])).get(documentId) ?? 0;
    },

    /** The current count of each of these documents (0 for one never read). */
    async viewsOf(documentIds: string[]): Promise<Map<string, number>> {
      const counts = new Map<string, number>();
      const unknown: string[] = [];
      for (const documentId of documentIds) {
        const views = remembered.get(documentId);
        if (views === undefined) unknown.push(documentId);
        else counts.set(documentId, views);
      }
      if (unknown.length === 0) return counts;
      const startedUnder = generation;
      const rows = (await strapi.db.connection(TABLES.views).select('document_id', 'views').whereIn('document_id', unknown)) as Array<{ document_id: string; views: number }>;
      const stored = new Map(rows.map((row) => [row.document_id, Number(row.views)]));
      for (const documentId of unknown) {
        const views = Math.max(stored.get(documentId) ?? 0, remembered.get(documentId) ?? 0);
        if (startedUnder === generation) remember(documentId, views);
        counts.set(documentId, views);
      }
      return counts;
    },

    /** Drops a deleted article's count, in the delete's transaction; the remembered one once it commits. */
    async forget(documentId: string): Promise<void> {
      await inTransaction(strapi, async ({ trx, onCommit }) => {
        await trx(TABLES.views).where({ document_id: documentId }).delete();
        onCommit(() => {
          generation += 1;
          remembered.delete(documentId);
        });
      });
    },
  };
};

export default articleViews;
