import type { Core } from '@strapi/strapi';
import { ARTICLE_UID } from '../constants';
import {
  actionOf,
  type ArticleSnapshot,
  changedFields,
  REVISION_TEXT_FIELDS,
  type RevisionActor,
  sameSnapshot,
  type TextChange,
  textChanges,
} from '../domain/article-revisions';
import { getConfig } from '../infrastructure/get-service';
import { lockUntilCommit } from '../infrastructure/locks';
import { currentRequest, type RequestState, writeOrigin } from '../infrastructure/write-origin';
import { type Revision, type RevisionEntry, revisions as revisionRows } from '../repositories/revisions';
import { toIsoString } from '../utils/dates';

/** Revisions removed per statement by the background pruning, so that no look holds the database long. */
const PRUNE_BATCH = 200;
const DAY_MS = 86_400_000;

interface StoredDraft {
  publish_at?: unknown;
  generated_fields?: unknown;
  category?: { name?: unknown; slug?: unknown } | null;
  cover?: { id?: unknown } | null;
  gallery?: Array<{ id?: unknown }> | null;
  [field: string]: unknown;
}

/** The revision one request made of one article, which the request's further writes of it bring up to date. */
interface OpenRevision {
  id: number;
  number: number;
  previous: ArticleSnapshot | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const fileId = (file: { id?: unknown } | null | undefined): number | null => (typeof file?.id === 'number' ? file.id : null);
const shortText = (value: unknown, length: number): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, length) : null;

/** A revision with what it changed in the title, summary and content, for a reader comparing versions. */
export interface RevisionDetail extends Revision {
  textChanges: TextChange[];
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
  let pruneTimer: NodeJS.Timeout | null = null;

  /** The article as it stands in this transaction: its draft (the newest text) and whether it is live. */
  const snapshotOf = async (documentId: string): Promise<ArticleSnapshot | null> => {
    const documents = strapi.documents(ARTICLE_UID);
    const draft = (await documents.findOne({
      documentId,
      status: 'draft',
      populate: { category: { fields: ['name', 'slug'] }, cover: { fields: ['id'] }, gallery: { fields: ['id'] } },
    })) as StoredDraft | null;
    if (draft === null) return null;
    const published = await documents.findOne({ documentId, status: 'published', fields: ['id'] });
    const publishAt = toIsoString(draft.publish_at);
    const category = draft.category;
    return {
      fields: Object.fromEntries(REVISION_TEXT_FIELDS.map((field) => [field, text(draft[field])])) as ArticleSnapshot['fields'],
      category:
        category && typeof category.name === 'string' && typeof category.slug === 'string'
          ? { name: category.name, slug: category.slug }
          : null,
      cover: fileId(draft.cover),
      gallery: (draft.gallery ?? []).map(fileId).filter((id): id is number => id !== null),
      status: published ? 'published' : publishAt !== null ? 'scheduled' : 'draft',
      publish_at: publishAt,
      generated: Array.isArray(draft.generated_fields)
        ? draft.generated_fields.filter((field): field is string => typeof field === 'string')
        : [],
    };
  };

  /** Who is writing: the scheduler or another origin that says so, else the request's credential; a script is "system". */
  const actorOf = async (): Promise<RevisionActor> => {
    const origin = writeOrigin()?.actor;
    if (origin !== undefined) return origin;
    const request = currentRequest(strapi);
    const state: RequestState | undefined = request !== undefined && 'state' in request ? request.state : undefined;
    if (state === undefined) return { kind: 'system', id: null, name: null };
    const userId = typeof state.user?.id === 'number' || typeof state.user?.id === 'string' ? String(state.user.id) : null;
    if (state.auditSource === 'mcp' && userId !== null) {
      // Strapi's MCP server names only the admin token's owner, by id.
      const owner = (await strapi.db
        .query('admin::user')
        .findOne({ where: { id: userId }, select: ['firstname', 'lastname', 'email'] })) as RequestState['user'] | null;
      return { kind: 'mcp', id: userId, name: personName(owner) };
    }
    const strategy = state.auth?.strategy?.name;
    const credentials = state.auth?.credentials;
    if (strategy === 'content-api-token' && credentials !== undefined) {
      const id = typeof credentials.id === 'number' || typeof credentials.id === 'string' ? String(credentials.id) : null;
      return { kind: 'api-token', id, name: shortText(credentials.name, 255) };
    }
    // An editor signed in to the admin, or a tool using an admin token: the token's owner.
    if ((strategy === 'admin' || strategy === 'admin-token') && userId !== null)
      return { kind: 'editor', id: userId, name: personName(state.user) };
    return { kind: 'system', id: null, name: null };
  };

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
    async beforeWrite(documentId: string): Promise<void> {
      await lockUntilCommit(strapi, `article:${documentId}`);
      if ((await rows().latest(documentId)) !== null) return;
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
    async afterWrite(documentId: string): Promise<void> {
      const snapshot = await snapshotOf(documentId);
      if (snapshot === null) return;
      const restoredFrom = writeOrigin()?.restoredFrom ?? null;
      const open = openIn();
      const kept = open?.get(documentId);
      if (kept !== undefined) {
        const changed = changedFields(kept.previous, snapshot);
        const action = actionOf(changed, { first: kept.previous === null, restored: restoredFrom !== null }, snapshot.status);
        await rows().replace(kept.id, { action, changed, snapshot });
        return;
      }
      const latest = await rows().latest(documentId);
      // A write that left the article as its newest revision has it (a publish of what is live, a save of nothing).
      if (latest !== null && restoredFrom === null && sameSnapshot(latest.snapshot, snapshot)) return;
      const changed = changedFields(latest?.snapshot ?? null, snapshot);
      const number = (latest?.number ?? 0) + 1;
      const action = actionOf(changed, { first: latest === null, restored: restoredFrom !== null }, snapshot.status);
      const id = await rows().insert({ documentId, number, action, actor: await actorOf(), restoredFrom, changed, snapshot });
      open?.set(documentId, { id, number, previous: latest?.snapshot ?? null });
      await rows().keepNewest(documentId, number, getConfig(strapi, 'revisionsKeep'));
    },

    /** A deleted article's revisions go with it. */
    async forget(documentId: string): Promise<void> {
      await rows().forgetDocument(documentId);
    },

    /** An article's revisions, newest first. */
    list(documentId: string): Promise<RevisionEntry[]> {
      return rows().list(documentId);
    },

    /** One revision with what it changed from the one before it; null when the article has no such revision. */
    async detail(documentId: string, number: number): Promise<RevisionDetail | null> {
      const found = await rows().withPrevious(documentId, number);
      if (found === null) return null;
      return { ...found.revision, textChanges: textChanges(found.previous, found.revision.snapshot) };
    },

    /** The article as it stands now (in this transaction), as a revision would keep it. */
    current: snapshotOf,

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

    /** Looks for revisions past their age every ARTIKEL_REVISIONS_PRUNE_SECONDS, in the background. */
    startPruning(): void {
      pruneTimer = setInterval(
        () => {
          this.pruneOld().catch((error: unknown) => strapi.log.error(`artikel: pruning revisions: ${(error as Error).message}`));
        },
        getConfig(strapi, 'revisionsPruneSeconds') * 1000,
      );
      pruneTimer.unref();
    },

    stopPruning(): void {
      if (pruneTimer !== null) clearInterval(pruneTimer);
      pruneTimer = null;
    },
  };
};

/** An admin user's name as the admin shows it: first and last name, else the e-mail address. */
function personName(user: RequestState['user'] | null | undefined): string | null {
  if (!user) return null;
  const name = [user.firstname, user.lastname].filter((part): part is string => typeof part === 'string' && part.trim() !== '').join(' ');
  return shortText(name, 255) ?? shortText(user.username, 255) ?? shortText(user.email, 255);
}

export default revisionsService;
