import type { Core } from '@strapi/strapi';
import {
  actionOf,
  type ArticleSnapshot,
  changedFields,
  type ComparedField,
  type RevisionAction,
  ARTICLE_TEXT_FIELDS,
  type RevisionActor,
  sameSnapshot,
  type TextChange,
  textChanges,
} from '../domain/article-revisions';
import { getConfig, getService } from '../infrastructure/get-service';
import { lockUntilCommit } from '../infrastructure/locks';
import { currentActor, currentRequest, writeOrigin } from '../infrastructure/write-origin';
import { articleSnapshot } from '../repositories/article-snapshots';
import { existingFileIds } from '../repositories/photo-files';
import { type Revision, type RevisionEntry, revisions as revisionRows } from '../repositories/revisions';

/** Revisions removed per statement by the background pruning, so that no look holds the database long. */
const PRUNE_BATCH = 200;
const DAY_MS = 86_400_000;

/** The revision one request made of one article, which the request's further writes of it bring up to date. */
interface OpenRevision {
  id: number;
  number: number;
  previous: ArticleSnapshot | null;
  /** What the revision holds now. */
  kept: ArticleSnapshot;
}

/** A revision with what it changed in the title, summary and content, for a reader comparing versions. */
export interface RevisionDetail extends Revision {
  textChanges: TextChange[];
  /** The revision the text changes are told against (the one before it, unless another was asked); null for the first. */
  comparedWith: number | null;
}

/**
 * Revisions: every write of an article (the admin, the API, MCP, a bulk action, the scheduler, a
 * script) keeps the version it left, with who made it and when, in the write's own transaction
 * (see document-middlewares/keep-revisions.ts). One request keeps one revision per article
 * however many document actions it makes. An article that has none yet (written before revisions
 * were kept) gets its current version kept first, as a baseline, so the version a write replaces is
 * always there. Reading an article never reads its revisions.
 */
const revisionsService = ({ strapi }: { strapi: Core.Strapi }) => {
  const rows = () => revisionRows(strapi);
  // Per request (or scheduler run), the revision it keeps of each article it writes.
  const openRevisions = new WeakMap<object, Map<string, OpenRevision>>();
  // Per request, the articles an editor's Publish puts saved changes of on the public site (see asksPublish).
  const publishingChanges = new WeakMap<object, Set<string>>();

  /**
   * Whether this document action is a publish that was asked for as such: an editor's Publish in
   * the Content Manager (or a script's), not the publish inside a command's write (see
   * WriteOrigin.command). Its revision is named a publish even where the status stays published.
   */
  const asksPublish = (action: string): boolean => action === 'publish' && writeOrigin()?.command !== true;

  /**
   * Whether the draft holds changes the live version lacks (compared field by field: the Content
   * Manager's Publish saves the form first, so the draft's time says nothing). False for an article
   * that is not live.
   */
  const hasUnpublishedChanges = async (documentId: string): Promise<boolean> => {
    const live = await articleSnapshot(strapi, documentId, 'published');
    const draft = live === null ? null : await snapshotOf(documentId);
    return draft !== null && live !== null && changedFields(live, draft).some((field) => field !== 'status' && field !== 'publish_at');
  };
  let pruneTimer: NodeJS.Timeout | null = null;

  const snapshotOf = (documentId: string): Promise<ArticleSnapshot | null> => articleSnapshot(strapi, documentId);

  /** The revisions this request keeps open, by article; scripts outside any request keep one per write. */
  const openIn = (): Map<string, OpenRevision> | null => {
    const request = currentRequest(strapi);
    if (request === undefined) return null;
    let open = openRevisions.get(request);
    if (open === undefined) {
      open = new Map();
      openRevisions.set(request, open);
    }
    return open;
  };

  return {
    /**
     * Before a write of an existing article: it has a revision to replace, or its current version
     * is kept now as a baseline. Takes the article's lock, so concurrent writes number their
     * revisions in turn.
     */
    async beforeWrite(documentId: string, action: string): Promise<void> {
      if (getConfig(strapi, 'revisionsKeep') === 0) return;
      const request = currentRequest(strapi);
      if (asksPublish(action) && request !== undefined && (await hasUnpublishedChanges(documentId))) {
        const publishing = publishingChanges.get(request) ?? new Set<string>();
        publishing.add(documentId);
        publishingChanges.set(request, publishing);
      }
      // This request keeps a revision of it already (the same lock, the same baseline question).
      if (openIn()?.has(documentId)) return;
      await lockUntilCommit(strapi, `article:${documentId}`);
      if (await rows().exists(documentId)) return;
      const snapshot = await snapshotOf(documentId);
      if (snapshot === null) return;
      const actor: RevisionActor = { kind: 'system', id: null, name: null };
      await rows().insert({
        documentId,
        number: 1,
        action: 'baseline',
        actor,
        restoredFrom: null,
        changed: changedFields(null, snapshot),
        snapshot,
      });
    },

    /** After a write: the article as it now stands becomes its newest revision, or brings this request's revision of it up to date. */
    async afterWrite(documentId: string, documentAction: string): Promise<void> {
      if (getConfig(strapi, 'revisionsKeep') === 0) return;
      const snapshot = await snapshotOf(documentId);
      if (snapshot === null) return;
      const restoredFrom = writeOrigin()?.restoredFrom ?? null;
      const open = openIn();
      const kept = open?.get(documentId);
      // An editor's Publish of a live article: of the changes it sends along (one request: update,
      // then publish), or of changes saved before (the draft was ahead of the live version).
      const published = asksPublish(documentAction) && snapshot.status === 'published';
      const namedFor = (changed: ComparedField[], first: boolean): RevisionAction =>
        published && !first && restoredFrom === null
          ? 'publish'
          : actionOf(changed, { first, restored: restoredFrom !== null }, snapshot.status);
      if (kept !== undefined) {
        const unchanged = sameSnapshot(kept.kept, snapshot);
        // A further action that changed nothing the revision holds (the publish after a PATCH's
        // update of a live article), unless it is the editor's Publish of what the request saved.
        if (unchanged && (!published || kept.previous === null)) return;
        const changed = changedFields(kept.previous, snapshot);
        await rows().replace(kept.id, { action: unchanged ? 'publish' : namedFor(changed, kept.previous === null), changed, snapshot });
        open?.set(documentId, { ...kept, kept: snapshot });
        return;
      }
      const latest = await rows().latest(documentId);
      const request = currentRequest(strapi);
      const putsSavedChangesLive = published && request !== undefined && publishingChanges.get(request)?.has(documentId) === true;
      // A write that left the article as its newest revision has it (a publish of what is live, a
      // save of nothing), but for an editor's Publish of changes saved before: that is a revision of its own.
      if (latest !== null && restoredFrom === null && sameSnapshot(latest.snapshot, snapshot) && !putsSavedChangesLive) return;
      const changed = changedFields(latest?.snapshot ?? null, snapshot);
      const number = (latest?.number ?? 0) + 1;
      const action = namedFor(changed, latest === null);
      const id = await rows().insert({ documentId, number, action, actor: await currentActor(strapi), restoredFrom, changed, snapshot });
      open?.set(documentId, { id, number, previous: latest?.snapshot ?? null, kept: snapshot });
      await rows().keepNewest(documentId, number, getConfig(strapi, 'revisionsKeep'));
    },

    /** An article's revisions, newest first. */
    list(documentId: string): Promise<RevisionEntry[]> {
      return rows().list(documentId);
    },

    /**
     * One revision with what it changed from the one before it, or from revision `against` (any
     * two versions compared: the older one's words removed, the newer one's added); null when the
     * article has no such revision, `{ missing }` when it has no revision `against`.
     */
    async detail(documentId: string, number: number, against: number | null = null): Promise<RevisionDetail | { missing: number } | null> {
      const found = await rows().withPrevious(documentId, number);
      if (found === null) return null;
      if (against === null)
        return { ...found.revision, textChanges: textChanges(found.previous, found.revision.snapshot), comparedWith: found.previousNumber };
      const other = await rows().snapshotAt(documentId, against);
      if (other === null) return { missing: against };
      const [older, newer] = against < number ? [other, found.revision.snapshot] : [found.revision.snapshot, other];
      return { ...found.revision, textChanges: textChanges(older, newer), comparedWith: against };
    },

    /** The article as it stands now (in this transaction), as a revision would keep it. */
    current: snapshotOf,

    /**
     * What the Document Service writes to give an article a snapshot's text, category and photos
     * (not its status or schedule; its slug only when asked): a default that was generated is
     * generated again from the restored text, and a photo deleted from the Media Library since is
     * left out.
     */
    async writeDataOf(snapshot: ArticleSnapshot, { slug }: { slug: boolean }): Promise<Record<string, unknown>> {
      const data: Record<string, unknown> = {};
      for (const field of ARTICLE_TEXT_FIELDS) {
        if (field !== 'slug' || slug) data[field] = snapshot.generated.includes(field) ? null : snapshot.fields[field];
      }
      if (snapshot.category !== null)
        data.category = (await getService(strapi, 'categories').findOrCreate(snapshot.category.name)).documentId;
      const ids = [...(snapshot.cover === null ? [] : [snapshot.cover]), ...snapshot.gallery];
      const files = await existingFileIds(strapi, ids);
      data.cover = snapshot.cover !== null && files.has(snapshot.cover) ? snapshot.cover : null;
      data.gallery = snapshot.gallery.filter((id) => files.has(id));
      return data;
    },

    /** The snapshot of one revision, or null. */
    async snapshot(documentId: string, number: number): Promise<ArticleSnapshot | null> {
      return (await rows().withPrevious(documentId, number))?.revision.snapshot ?? null;
    },

    /** Removes revisions past their age now, in batches; resolves to how many. */
    async pruneOld(): Promise<number> {
      const days = getConfig(strapi, 'revisionsDays');
      if (days === 0) return 0;
      const before = Date.now() - days * DAY_MS;
      let removed = 0;
      for (;;) {
        const batch = await rows().removeOlderThan(before, PRUNE_BATCH);
        removed += batch;
        if (batch < PRUNE_BATCH) return removed;
      }
    },

    /** Looks for revisions past their age every ARTIKEL_CLEANUP_SECONDS, in the background. */
    startPruning(): void {
      pruneTimer = setInterval(
        () => {
          this.pruneOld().catch((error: unknown) => strapi.log.error(`artikel: pruning revisions: ${(error as Error).message}`));
        },
        getConfig(strapi, 'cleanupSeconds') * 1000,
      );
      pruneTimer.unref();
    },

    stopPruning(): void {
      if (pruneTimer !== null) clearInterval(pruneTimer);
      pruneTimer = null;
    },
  };
};

export default revisionsService;
