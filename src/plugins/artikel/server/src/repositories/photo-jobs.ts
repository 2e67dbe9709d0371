import type { Core } from '@strapi/strapi';
import { TABLES } from '../constants';
import { firstRow } from '../infrastructure/row-limits';
import type { Knex } from '../infrastructure/transactions';

/**
 * A photo this instance claimed for its renditions: how often the storage failed it, and until when
 * the claim holds. The photo waiting again meanwhile (replaced: see add) clears the claim, so what
 * this instance then says of its work (finish, retryAt, release) leaves the new wait alone.
 */
export interface PhotoJob {
  fileId: number;
  attempts: number;
  claimedUntil: number;
}

interface PhotoJobRow {
  file_id: unknown;
  attempts: unknown;
}

/** The longest `last_error` kept: enough for a storage's message, never a whole response body. */
const ERROR_CHARACTERS = 500;

/**
 * The photos waiting for their renditions, in the database so that the work outlives an outage of
 * the storage and a restart of the service, and is done once however many instances share the
 * database (times are epoch milliseconds, the same on both stores).
 */
export async function ensurePhotoJobTable(strapi: Core.Strapi): Promise<void> {
  const knex = strapi.db.connection;
  if (await knex.schema.hasTable(TABLES.photoJobs)) return;
  await knex.schema.createTable(TABLES.photoJobs, (table) => {
    table.integer('file_id').notNullable().primary();
    table.integer('attempts').notNullable().defaultTo(0);
    table.bigInteger('due_at').notNullable();
    // While an instance works on it: no other takes it until then (an instance that died lets it go).
    table.bigInteger('claimed_until');
    table.string('last_error', ERROR_CHARACTERS);
    table.index(['due_at'], `${TABLES.photoJobs}_due_idx`);
  });
}

export const photoJobs = (strapi: Core.Strapi) => {
  const knex = () => strapi.db.connection;
  /** Rows no instance holds: never claimed, or claimed by one that let the claim run out. */
  const unclaimed = (now: number) => (free: ReturnType<Knex>) => free.whereNull('claimed_until').orWhere('claimed_until', '<', now);
  /** The job's row while this instance's claim on it holds. */
  const stillClaimed = (job: PhotoJob) => knex()(TABLES.photoJobs).where({ file_id: job.fileId, claimed_until: job.claimedUntil });

  return {
    /**
     * Waits a photo for its renditions now. A photo already waiting is due now again, its failures
     * forgotten and its claim cleared: an instance still working on its previous version (a
     * replaced photo) then leaves this wait in place when it finishes.
     */
    async add(fileId: number, now: number): Promise<void> {
      await knex()(TABLES.photoJobs)
        .insert({ file_id: fileId, attempts: 0, due_at: now, claimed_until: null, last_error: null })
        .onConflict('file_id')
        .merge(['attempts', 'due_at', 'claimed_until', 'last_error']);
    },

    /**
     * The photo due first, claimed by this instance until `claimedUntil`; null when none is due. A
     * photo two instances pick at once is claimed by one: the update counts on the unclaimed row.
     */
    async claimDue(now: number, claimedUntil: number): Promise<PhotoJob | null> {
      for (let tries = 0; tries < 3; tries += 1) {
        const row = (await firstRow(
          knex()(TABLES.photoJobs).select('file_id', 'attempts').where('due_at', '<=', now).where(unclaimed(now)).orderBy('due_at', 'asc'),
        )) as PhotoJobRow | undefined;
        if (row === undefined) return null;
        const fileId = Number(row.file_id);
        const claimed = await knex()(TABLES.photoJobs)
          .where('file_id', fileId)
          .where(unclaimed(now))
          .update({ claimed_until: claimedUntil });
        if (Number(claimed) === 1) return { fileId, attempts: Number(row.attempts), claimedUntil };
      }
      return null;
    },

    /** The storage failed the photo: it is tried again at `dueAt`, by whichever instance comes first. */
    async retryAt(job: PhotoJob, dueAt: number, error: string): Promise<void> {
      await stillClaimed(job).update({
        attempts: job.attempts + 1,
        due_at: dueAt,
        claimed_until: null,
        last_error: error.slice(0, ERROR_CHARACTERS),
      });
    },

    /** This instance stops before the photo's work is done: the next instance to look takes it at once. */
    async release(job: PhotoJob): Promise<void> {
      await stillClaimed(job).update({ claimed_until: null });
    },

    /** The work this instance claimed is over (made, already there, not a photo, or gone). */
    async finish(job: PhotoJob): Promise<void> {
      await stillClaimed(job).delete();
    },

    /** The photo waits no longer, whoever holds it (npm run photos:process made its renditions). */
    async forget(fileId: number): Promise<void> {
      await knex()(TABLES.photoJobs).where('file_id', fileId).delete();
    },

    /** How many photos wait, and how many of them the storage has failed at least once. */
    async counts(): Promise<{ waiting: number; failing: number }> {
      const row = (await firstRow(
        knex()(TABLES.photoJobs).select(
          knex().raw('COUNT(*) AS waiting'),
          knex().raw('COALESCE(SUM(CASE WHEN attempts > 0 THEN 1 ELSE 0 END), 0) AS failing'),
        ),
      )) as { waiting?: unknown; failing?: unknown } | undefined;
      return { waiting: Number(row?.waiting ?? 0), failing: Number(row?.failing ?? 0) };
    },
  };
};
