import type { Core } from '@strapi/strapi';
import { getService } from '../infrastructure/get-service';
import { detached } from '../infrastructure/detached-work';

// Writes behind the pipeline come in bursts (a data transfer writes every row): one repair after them.
const QUIET_MS = 1000;
const RETRY_MS = 5000;

/**
 * Articles, categories and view counts written without this plugin's document middleware pipeline
 * (`strapi transfer` into a running service writes with strapi.db.query; a script might too): once
 * such writes have been quiet for a moment, the index rows are reconciled with the published rows,
 * the remembered view counts and cached reads are dropped, and the other instances are told.
 */
const outsideWrites = ({ strapi }: { strapi: Core.Strapi }) => {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;

  const repair = async (): Promise<void> => {
    await getService(strapi, 'article-index').reconcile();
    // Rows written behind the Document Service may lack the reading time it counts on every write.
    await getService(strapi, 'article-index').fillReadingTimes();
    getService(strapi, 'article-views').forgetAll();
    await getService(strapi, 'read-freshness').written();
  };

  const schedule = (delay: number): void => {
    if (stopped) return;
    if (timer !== null) clearTimeout(timer);
    // A timer runs in the context it was set in: the repair must not be part of the write that set it.
    timer = setTimeout(
      () =>
        detached(() => {
          timer = null;
          // One repair at a time; writes noticed during one are covered by the next.
          if (running !== null) {
            schedule(delay);
            return;
          }
          running = repair()
            .catch((error: unknown) => {
              // On SQLite the writer may still hold the one connection; try again later.
              strapi.log.warn(`artikel: repairing the index after writes outside the Document Service failed, retrying: ${String(error)}`);
              schedule(RETRY_MS);
            })
            .finally(() => {
              running = null;
            });
        }),
      delay,
    );
    timer.unref();
  };

  return {
    noticed(): void {
      schedule(QUIET_MS);
    },

    async stop(): Promise<void> {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
};

export default outsideWrites;
