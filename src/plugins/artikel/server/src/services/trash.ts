import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { ARTICLE_UID } from '../constants';
import { getConfig, getService } from '../infrastructure/get-service';
import { lockUntilCommit } from '../infrastructure/locks';
import { inTransaction } from '../infrastructure/transactions';
import { currentActor, withWriteOrigin } from '../infrastructure/write-origin';
import { oldSlugs } from '../repositories/old-slugs';
import { revisions as revisionRows } from '../repositories/revisions';
import { type TrashEntry, trash as trashRows } from '../repositories/trash';
import { toIsoString } from '../utils/dates';
import { ownedArticle } from '../repositories/article-owners';

const DAY_MS = 86_400_000;

/** A command's check on a trashed article before it is restored or purged (throws to refuse). */
type Authorize = (entry: TrashEntry, change: { goesLive: boolean }) => void;

/** Whether a publication time is still to come. */
const isAhead = (time: string | null | undefined): time is string => typeof time === 'string' && Date.parse(time) > Date.now();
/** Trashed articles purged per look, each in its own transaction. */
const PURGE_BATCH = 50;

/**
 * The trash. A deleted article (by the API, the admin, a bulk action, an agent, a script) leaves
 * every public read at once, but its last version, slug, old slugs, views and revisions are held
 * for ARTIKEL_TRASH_DAYS: an editor can restore it as it was (same document id, so the same views,
 * old slugs and revisions), and no other article may take its slugs meanwhile. Afterwards, or when
 * an editor purges it, all of that is removed. With ARTIKEL_TRASH_DAYS=0 a delete removes it at once.
 */
const trashService = ({ strapi }: { strapi: Core.Strapi }) => {
  const rows = () => trashRows(strapi);
  let purgeTimer: NodeJS.Timeout | null = null;

  /** What an article leaves behind besides its rows: views, old slugs, revisions. */
  const forgetLeftovers = async (documentId: string): Promise<void> => {
    await getService(strapi, 'article-views').forget(documentId);
    await oldSlugs(strapi).forgetDocument(documentId);
    await revisionRows(strapi).forgetDocument(documentId);
  };

  const notInTrash = (documentId: string) =>
    new errors.NotFoundError(`No article with the id "${documentId}" is in the trash (it was restored or purged)`);

  return {
    /** Whether a delete puts the article in the trash (ARTIKEL_TRASH_DAYS above 0). */
    enabled: (): boolean => getConfig(strapi, 'trashDays') > 0,

    /** Before an article is deleted: its last version goes into the trash, in the delete's transaction. */
    async keep(documentId: string): Promise<void> {
      const snapshot = await getService(strapi, 'revisions').current(documentId);
      if (snapshot === null) return;
      const published = await strapi.documents(ARTICLE_UID).findOne({ documentId, status: 'published', fields: ['publishedAt'] });
      const owner = await ownedArticle(strapi, documentId);
      await rows().insert({
        creatorId: owner?.createdById ?? null,
        documentId,
        slug: snapshot.fields.slug ?? '',
        title: snapshot.fields.title ?? '',
        deletedBy: await currentActor(strapi),
        wasPublishedAt: toIsoString(published?.publishedAt),
        purgeAfterMs: Date.now() + getConfig(strapi, 'trashDays') * DAY_MS,
        snapshot,
      });
    },

    forgetLeftovers,

    /** Every article in the trash, the most recently deleted first. */
    list(): Promise<TrashEntry[]> {
      return rows().list();
    },

    /**
     * Gives a trashed article back, as it was when deleted: its text, category, photos and slug, live
     * again at its old publication time if it was live (a schedule still ahead is kept), under its
     * old document id, so its views, old slugs and revisions are its own again. Returns its slug.
     */
    async restore(documentId: string, authorize?: Authorize): Promise<{ documentId: string; slug: string }> {
      return inTransaction(strapi, async () => {
        await lockUntilCommit(strapi, `article:${documentId}`);
        const entry = await rows().one(documentId);
        if (entry === null) throw notInTrash(documentId);
        authorize?.(entry, { goesLive: entry.wasPublishedAt !== null || isAhead(entry.snapshot.publish_at) });
        // Out of the trash first: its slug is then free for the article itself.
        await rows().remove(documentId);
        const revisions = getService(strapi, 'revisions');
        const data = await revisions.writeDataOf(entry.snapshot, { slug: true });
        const publishAt = entry.snapshot.publish_at;
        if (entry.wasPublishedAt === null && isAhead(publishAt)) data.publish_at = publishAt;
        // The article is its creator's again, so their role's "is creator" still names them.
        if (entry.creatorId !== null) Object.assign(data, { createdBy: entry.creatorId, updatedBy: entry.creatorId });
        const newest = (await revisions.list(documentId))[0]?.number ?? null;
        await withWriteOrigin(newest === null ? {} : { restoredFrom: newest }, async () => {
          // Strapi keeps a documentId given in the data (it checks it is not taken), so the article is the same document again.
          const restored = { ...data, documentId } as Parameters<
            ReturnType<typeof strapi.documents<typeof ARTICLE_UID>>['create']
          >[0]['data'];
          await strapi.documents(ARTICLE_UID).create({ data: restored, status: 'draft' });
          if (entry.wasPublishedAt !== null) await getService(strapi, 'publication').publishAt(documentId, new Date(entry.wasPublishedAt));
        });
        return { documentId, slug: entry.slug };
      });
    },

    /** Removes a trashed article for good, with its views, old slugs and revisions; its slugs are free. */
    async purge(documentId: string, authorize?: Authorize): Promise<void> {
      await inTransaction(strapi, async () => {
        await lockUntilCommit(strapi, `article:${documentId}`);
        const entry = await rows().one(documentId);
        if (entry === null) throw notInTrash(documentId);
        authorize?.(entry, { goesLive: false });
        await rows().remove(documentId);
        await forgetLeftovers(documentId);
      });
    },

    /** Purges every article in the trash that `mayPurge` admits (all without it); resolves to how many. */
    async empty(mayPurge: (entry: TrashEntry) => boolean = () => true): Promise<number> {
      const entries = (await rows().list()).filter(mayPurge);
      let purged = 0;
      for (const entry of entries)
        await this.purge(entry.documentId).then(
          () => {
            purged += 1;
          },
          (error: unknown) => {
            // Restored or purged by someone else meanwhile: nothing left to purge.
            if (!(error instanceof errors.NotFoundError)) throw error;
          },
        );
      return purged;
    },

    /** Purges the articles whose time in the trash is up; resolves to how many. */
    async purgeExpired(): Promise<number> {
      let purged = 0;
      for (;;) {
        const due = await rows().expired(PURGE_BATCH);
        for (const documentId of due) {
          await this.purge(documentId).catch((error: unknown) => {
            if (!(error instanceof errors.NotFoundError)) throw error;
          });
        }
        purged += due.length;
        if (due.length < PURGE_BATCH) return purged;
      }
    },

    /** Looks for trashed articles past their time every ARTIKEL_CLEANUP_SECONDS, in the background. */
    startPurging(): void {
      purgeTimer = setInterval(
        () => {
          this.purgeExpired().catch((error: unknown) => strapi.log.error(`artikel: purging the trash: ${(error as Error).message}`));
        },
        getConfig(strapi, 'cleanupSeconds') * 1000,
      );
      purgeTimer.unref();
    },

    stopPurging(): void {
      if (purgeTimer !== null) clearInterval(purgeTimer);
      purgeTimer = null;
    },
  };
};

export default trashService;
