import type { Core } from '@strapi/strapi';
import { LRUCache } from 'lru-cache';
import { afterCommit } from '../repositories/transactions';
import { viewCounts } from '../repositories/view-counts';
import { isSqlite } from '../utils/database-dialect';

// A count is a few bytes; this covers every article of a large site, so reads rarely go to the table.
const REMEMBERED_COUNTS = 200_000;

/**
 * View counts, stored in the plugin's content type view-count (see repositories/view-counts.ts),
 * so Strapi's data transfer carries them. On SQLite they are also remembered in the process: one
 * process serves the file and counts change only through this service (or a data transfer, after
 * which forgetAll() runs), so the remembered ones are exact. Every count written is kept as the
 * larger of the old and new value, because counts only grow and concurrent reads may answer out of
 * order. On PostgreSQL other instances count too, so counts are always read from the table.
 */
const articleViews = ({ strapi }: { strapi: Core.Strapi }) => {
  const remembered = new LRUCache<string, number>({ max: REMEMBERED_COUNTS });
  const onlyCounter = isSqlite(strapi);
  const stored = viewCounts(strapi);
  // Bumped by forget() and forgetAll(), so a read that began before a count was dropped cannot bring it back.
  let generation = 0;

  const remember = (documentId: string, views: number): void => {
    if (onlyCounter) remembered.set(documentId, Math.max(remembered.get(documentId) ?? 0, views));
  };

  return {
    /** Adds one view and returns the new count, in one atomic statement. */
    async countView(documentId: string): Promise<number> {
      const views = await stored.increment(documentId);
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
      const found = await stored.countsOf(unknown);
      for (const documentId of unknown) {
        const views = Math.max(found.get(documentId) ?? 0, remembered.get(documentId) ?? 0);
        if (startedUnder === generation) remember(documentId, views);
        counts.set(documentId, views);
      }
      return counts;
    },

    /** Drops a deleted article's count, in the delete's transaction; the remembered one once it commits. */
    async forget(documentId: string): Promise<void> {
      await stored.remove(documentId);
      await afterCommit(strapi, () => {
        generation += 1;
        remembered.delete(documentId);
      });
    },

    /** Drops every remembered count: the table was written behind this service (a data transfer). */
    forgetAll(): void {
      generation += 1;
      remembered.clear();
    },
  };
};

export default articleViews;
