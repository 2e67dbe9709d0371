import type { Core } from '@strapi/strapi';
import { LRUCache } from 'lru-cache';
import { afterCommit } from '../infrastructure/transactions';
import { viewCounts } from '../repositories/view-counts';
import { isSqlite } from '../infrastructure/database-dialect';
import { getConfig } from '../infrastructure/get-service';
import { detached } from '../infrastructure/detached-work';

// A count is a few bytes; this covers every article of a large site, so reads rarely go to the table.
const REMEMBERED_COUNTS = 200_000;

/** An article's count while some of its views are not yet in the table. */
interface UnwrittenViews {
  /** The exact count: the table's plus the unwritten ones. */
  views: number;
  unwritten: number;
}

/**
 * View counts, stored in the plugin's content type view-count (see repositories/view-counts.ts),
 * so Strapi's data transfer carries them.
 *
 * On SQLite one process serves the file and counts change only through this service (or a data
 * transfer, after which forgetAll() runs), so the counts it remembers are exact. There a view is
 * counted in memory and written with the others of the last ARTIKEL_VIEW_WRITE_MS (1 s) in one
 * statement: SQLite has one writer, which every write transaction holds until it commits, and a
 * reader counting its view in the table would wait for it. The price: a process crash loses the
 * views of at most that last second; a stop writes them. ARTIKEL_VIEW_WRITE_MS=0 writes each view
 * at once.
 *
 * On PostgreSQL other instances count too: each view is added in the table in one atomic
 * statement, and counts are always read from it.
 */
const articleViews = ({ strapi }: { strapi: Core.Strapi }) => {
  const onlyCounter = isSqlite(strapi);
  // Set to 0 by stop(): a view counted while the app stops is written at once, not scheduled.
  let writeAfterMs = onlyCounter ? getConfig(strapi, 'viewWriteMs') : 0;
  const remembered = new LRUCache<string, number>({ max: REMEMBERED_COUNTS });
  // Counts with views not yet written; never evicted, emptied by each write.
  const unwritten = new Map<string, UnwrittenViews>();
  const stored = viewCounts(strapi);
  let writeTimer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();
  // Bumped by forget() and forgetAll(), so a read that began before a count was dropped cannot bring it back.
  let generation = 0;

  const remember = (documentId: string, views: number): void => {
    if (onlyCounter) remembered.set(documentId, Math.max(remembered.get(documentId) ?? 0, views));
  };

  const knownViews = (documentId: string): number | undefined => unwritten.get(documentId)?.views ?? remembered.get(documentId);

  /** Writes the views counted so far, in one statement; those counted meanwhile wait for the next write. */
  const writeUnwritten = async (): Promise<void> => {
    writeTimer = null;
    const batch = [...unwritten].map(([documentId, counted]) => ({ documentId, counted, views: counted.unwritten }));
    if (batch.length === 0) return;
    try {
      await stored.add(new Map(batch.map(({ documentId, views }) => [documentId, views])));
    } catch (error) {
      strapi.log.warn(`[artikel] ${batch.length} view counts could not be written, tried again later: ${(error as Error).message}`);
      scheduleWrite();
      return;
    }
    for (const { documentId, counted, views } of batch) {
      // A count dropped meanwhile (its article deleted, a data transfer) is not this one any more.
      if (unwritten.get(documentId) !== counted) continue;
      counted.unwritten -= views;
      if (counted.unwritten > 0) continue;
      unwritten.delete(documentId);
      remember(documentId, counted.views);
    }
  };

  const scheduleWrite = (): void => {
    if (writeTimer !== null) return;
    // Outside the async context of the read that counted a view (its request, held as long as the timer).
    writeTimer = setTimeout(
      () =>
        detached(() => {
          writing = writing.then(writeUnwritten);
        }),
      writeAfterMs,
    );
    // A pending write keeps no process alive: a stop writes it (stop()), a crash loses it.
    writeTimer.unref();
  };

  /** The current count of each of these documents (0 for one never read); those not known are read from the table and remembered. */
  const viewsOf = async (documentIds: string[]): Promise<Map<string, number>> => {
    const counts = new Map<string, number>();
    const unknown: string[] = [];
    for (const documentId of documentIds) {
      const views = knownViews(documentId);
      if (views === undefined) unknown.push(documentId);
      else counts.set(documentId, views);
    }
    if (unknown.length === 0) return counts;
    const startedUnder = generation;
    const found = await stored.countsOf(unknown);
    for (const documentId of unknown) {
      const views = Math.max(found.get(documentId) ?? 0, knownViews(documentId) ?? 0);
      if (startedUnder === generation) remember(documentId, views);
      counts.set(documentId, views);
    }
    return counts;
  };

  /** Adds a view to the count in memory (loaded from the table when not known) and schedules its write. */
  const countInMemory = async (documentId: string): Promise<number> => {
    // A count dropped while it was read (a data transfer) is read again.
    while (knownViews(documentId) === undefined) await viewsOf([documentId]);
    const counted = unwritten.get(documentId) ?? { views: knownViews(documentId) ?? 0, unwritten: 0 };
    counted.views += 1;
    counted.unwritten += 1;
    unwritten.set(documentId, counted);
    scheduleWrite();
    return counted.views;
  };

  return {
    /** Adds one view and returns the new count. */
    async countView(documentId: string): Promise<number> {
      if (writeAfterMs > 0) return countInMemory(documentId);
      const views = await stored.increment(documentId);
      remember(documentId, views);
      return views;
    },

    async currentViews(documentId: string): Promise<number> {
      return (await this.viewsOf([documentId])).get(documentId) ?? 0;
    },

    /** The current count of each of these documents (0 for one never read). */
    viewsOf,

    /** Whether every view is in the table once counted (PostgreSQL, or writes not delayed): a row read now holds its current count. */
    rowsHoldEveryView(): boolean {
      return writeAfterMs === 0;
    },

    /** Drops a deleted article's count, in the delete's transaction; the remembered one once it commits. */
    async forget(documentId: string): Promise<void> {
      await stored.remove(documentId);
      await afterCommit(strapi, () => {
        generation += 1;
        remembered.delete(documentId);
        unwritten.delete(documentId);
      });
    },

    /** Drops every remembered count: the table was written behind this service (a data transfer). */
    forgetAll(): void {
      generation += 1;
      remembered.clear();
      unwritten.clear();
    },

    /**
     * Writes the views counted so far now, when there are any: a list sorted by views reads the
     * table, and must see every view counted before it (on PostgreSQL every view is in it already).
     */
    async flush(): Promise<void> {
      if (unwritten.size === 0) return;
      if (writeTimer !== null) clearTimeout(writeTimer);
      writeTimer = null;
      writing = writing.then(writeUnwritten);
      await writing;
    },

    /** How many articles have views not yet in the table (for the tests and the benchmark). */
    unwrittenCount(): number {
      return unwritten.size;
    },

    /** Writes the views not yet written (when the app stops). */
    async stop(): Promise<void> {
      writeAfterMs = 0;
      if (writeTimer !== null) clearTimeout(writeTimer);
      writing = writing.then(writeUnwritten);
      await writing;
    },
  };
};

export default articleViews;
