import type { Core } from '@strapi/strapi';
import { tryLockUntilCommit } from '../infrastructure/locks';
import { inTransaction } from '../infrastructure/transactions';
import { dueSchedules, scheduledTimeOf } from '../repositories/scheduled-articles';
import { getService } from '../infrastructure/get-service';
import { withWriteOrigin } from '../infrastructure/write-origin';

/** How often each instance looks for schedules that came due: the contract allows 5 s of lateness. */
const TICK_MS = 1_000;
/** Schedules published per look, so one look never holds the database long; the rest follow a second later. */
const BATCH = 20;

/**
 * Scheduled publishing. A scheduled article is a draft with a `publish_at`; every instance looks
 * once a second for those that came due (and, as it starts, for those that came due while it was
 * down) and publishes each through the Document Service, so the rules, indexes, caches, notices to
 * other instances and Strapi's `entry.publish` webhook follow as for any publish.
 *
 * Exactly once, whatever the number of instances: each article is published in a transaction that
 * first takes the article's lock without waiting (PostgreSQL: an advisory lock; SQLite has one
 * writer at a time) and then reads the schedule again. An instance that finds the lock taken, or
 * the schedule gone (another instance published it, an editor cancelled it), leaves it. A crash
 * before the commit leaves the schedule as it was, for the next look. The published version gets
 * `publish_at` as its publication time, in the same transaction (see publication.ts).
 */
const scheduledPublishing = ({ strapi }: { strapi: Core.Strapi }) => {
  let timer: NodeJS.Timeout | null = null;
  let looking: Promise<number> | null = null;

  /** Publishes one due article unless another instance or an editor got there first; true when this one did. */
  const publishOne = async (documentId: string): Promise<boolean> =>
    inTransaction(strapi, async () => {
      if (!(await tryLockUntilCommit(strapi, `schedule:${documentId}`))) return false;
      const publishAt = await scheduledTimeOf(strapi, documentId);
      if (publishAt === null || publishAt.getTime() > Date.now()) return false;
      // Published at its schedule, not at the moment this look ran (see publication.ts).
      // Its revision names the scheduler: no request made this write.
      await withWriteOrigin({ actor: { kind: 'schedule', id: null, name: null } }, () =>
        getService(strapi, 'publication').publishAt(documentId, publishAt),
      );
      strapi.log.info(`artikel: published the scheduled article ${documentId}, due at ${publishAt.toISOString()}`);
      return true;
    });

  const lookOnce = async (): Promise<number> => {
    let published = 0;
    for (const documentId of await dueSchedules(strapi, new Date(), BATCH)) {
      try {
        if (await publishOne(documentId)) published += 1;
      } catch (error) {
        // One article that cannot be published (its category deleted, say) must not hold up the others; it is tried again next look.
        strapi.log.error(`artikel: could not publish the scheduled article ${documentId}: ${(error as Error).message}`);
      }
    }
    return published;
  };

  return {
    /** Publishes what came due (while the service was down, too), then looks again every second. */
    async start(): Promise<void> {
      await this.publishDue();
      timer = setInterval(() => {
        this.publishDue().catch((error: unknown) => strapi.log.error(`artikel: scheduled publishing: ${(error as Error).message}`));
      }, TICK_MS);
      timer.unref();
    },

    /** One look for due schedules; a look asked for while one runs shares it. Resolves to how many this instance published. */
    publishDue(): Promise<number> {
      looking ??= lookOnce().finally(() => {
        looking = null;
      });
      return looking;
    },

    async stop(): Promise<void> {
      if (timer !== null) clearInterval(timer);
      timer = null;
      await looking?.catch(() => undefined);
    },
  };
};

export default scheduledPublishing;
