import type { Core } from '@strapi/strapi';
import { TABLES } from '../constants';
import { isSqlite } from '../infrastructure/database-dialect';
import { database } from '../infrastructure/transactions';
import {
  type ArticleSnapshot,
  type ComparedField,
  COMPARED_FIELDS,
  parseSnapshot,
  type RevisionAction,
  type RevisionActor,
} from '../domain/article-revisions';
import { toIsoString } from '../utils/dates';
import { newDocumentId } from '../utils/document-id';

/** A revision as a reader sees it in a list: no snapshot (an article's text may be a megabyte). */
export interface RevisionEntry {
  number: number;
  action: RevisionAction;
  actor: RevisionActor;
  restoredFrom: number | null;
  changed: ComparedField[];
  createdAt: string;
}

export interface Revision extends RevisionEntry {
  snapshot: ArticleSnapshot;
}

export interface NewRevision {
  documentId: string;
  number: number;
  action: RevisionAction;
  actor: RevisionActor;
  restoredFrom: number | null;
  changed: ComparedField[];
  snapshot: ArticleSnapshot;
}

const ACTIONS: readonly RevisionAction[] = ['create', 'update', 'publish', 'unpublish', 'schedule', 'restore', 'baseline'];
const ACTOR_KINDS: readonly RevisionActor['kind'][] = ['editor', 'api-token', 'mcp', 'schedule', 'system'];

const ENTRY_COLUMNS = ['number', 'action', 'actor_kind', 'actor_id', 'actor_name', 'restored_from', 'changed', 'created_at'];

interface EntryRow {
  number: number | string;
  action: unknown;
  actor_kind: unknown;
  actor_id: unknown;
  actor_name: unknown;
  restored_from: number | string | null;
  changed: unknown;
  created_at: unknown;
}

const jsonValue = (stored: unknown): unknown => {
  if (typeof stored !== 'string') return stored;
  try {
    return JSON.parse(stored);
  } catch {
    return null;
  }
};

function parseEntry(row: EntryRow): RevisionEntry {
  const changed = jsonValue(row.changed);
  return {
    number: Number(row.number),
    action: ACTIONS.includes(row.action as RevisionAction) ? (row.action as RevisionAction) : 'update',
    actor: {
      kind: ACTOR_KINDS.includes(row.actor_kind as RevisionActor['kind']) ? (row.actor_kind as RevisionActor['kind']) : 'system',
      id: typeof row.actor_id === 'string' ? row.actor_id : null,
      name: typeof row.actor_name === 'string' ? row.actor_name : null,
    },
    restoredFrom: row.restored_from === null ? null : Number(row.restored_from),
    changed: Array.isArray(changed) ? COMPARED_FIELDS.filter((field) => changed.includes(field)) : [],
    createdAt: toIsoString(row.created_at) ?? new Date(0).toISOString(),
  };
}

/**
 * The rows of the content type plugin::artikel.revision (table artikel_revisions): each version of
 * an article a write left, numbered from 1 per article. Written with SQL in the write's own
 * transaction, with Strapi's own columns filled as for view counts (see view-counts.ts).
 */
export function revisions(strapi: Core.Strapi) {
  const table = () => database(strapi)(TABLES.revisions);
  const now = (): Date | number => (isSqlite(strapi) ? Date.now() : new Date());

  return {
    /** The newest revision of an article: its row id, number, snapshot and request. */
    async latest(documentId: string): Promise<{ id: number; number: number; snapshot: ArticleSnapshot } | null> {
      const row = (await table()
        .select('id', 'number', 'snapshot')
        .where('article_document_id', documentId)
        .orderBy('number', 'desc')
        .first()) as { id: number | string; number: number | string; snapshot: unknown } | undefined;
      return row === undefined ? null : { id: Number(row.id), number: Number(row.number), snapshot: parseSnapshot(row.snapshot) };
    },

    /** Whether an article has any revision. */
    async exists(documentId: string): Promise<boolean> {
      return (await table().select('id').where('article_document_id', documentId).first()) !== undefined;
    },

    /** Adds a revision; returns its row id. */
    async insert(revision: NewRevision): Promise<number> {
      const at = now();
      const [row] = (await table()
        .insert({
          document_id: newDocumentId(),
          article_document_id: revision.documentId,
          number: revision.number,
          action: revision.action,
          actor_kind: revision.actor.kind,
          actor_id: revision.actor.id,
          actor_name: revision.actor.name,
          restored_from: revision.restoredFrom,
          changed: JSON.stringify(revision.changed),
          snapshot: JSON.stringify(revision.snapshot),
          created_at: at,
          updated_at: at,
          published_at: at,
        })
        .returning('id')) as Array<{ id: number | string } | number>;
      return Number(typeof row === 'object' ? row.id : row);
    },

    /** The same write went on (one request, several document actions): its revision now holds where it ended. */
    async replace(id: number, changes: { action: RevisionAction; changed: ComparedField[]; snapshot: ArticleSnapshot }): Promise<void> {
      await table()
        .where('id', id)
        .update({
          action: changes.action,
          changed: JSON.stringify(changes.changed),
          snapshot: JSON.stringify(changes.snapshot),
          updated_at: now(),
        });
    },

    /** An article's revisions, newest first, without their snapshots. */
    async list(documentId: string): Promise<RevisionEntry[]> {
      const rows = (await table().select(ENTRY_COLUMNS).where('article_document_id', documentId).orderBy('number', 'desc')) as EntryRow[];
      return rows.map(parseEntry);
    },

    /** One revision of an article with its snapshot, and the snapshot of the one before it (what it changed is the difference). */
    async withPrevious(
      documentId: string,
      number: number,
    ): Promise<{ revision: Revision; previous: ArticleSnapshot | null; previousNumber: number | null } | null> {
      const rows = (await table()
        .select([...ENTRY_COLUMNS, 'snapshot'])
        .where('article_document_id', documentId)
        .andWhere('number', '<=', number)
        .orderBy('number', 'desc')
        .limit(2)) as Array<EntryRow & { snapshot: unknown }>;
      const [row, before] = rows;
      if (row === undefined || Number(row.number) !== number) return null;
      return {
        revision: { ...parseEntry(row), snapshot: parseSnapshot(row.snapshot) },
        previous: before === undefined ? null : parseSnapshot(before.snapshot),
        previousNumber: before === undefined ? null : Number(before.number),
      };
    },

    /** The article as one of its revisions kept it; null when it has no such revision. */
    async snapshotAt(documentId: string, number: number): Promise<ArticleSnapshot | null> {
      const row = (await table().select('snapshot').where({ article_document_id: documentId, number }).first()) as
        { snapshot: unknown } | undefined;
      return row === undefined ? null : parseSnapshot(row.snapshot);
    },

    /** A deleted article's revisions go with it. */
    async forgetDocument(documentId: string): Promise<void> {
      await table().where('article_document_id', documentId).delete();
    },

    /**
     * Keeps an article's newest `keep` revisions and removes the older ones: one delete through the
     * (article, number) index, made by the write that adds a revision. Numbers start at 1, so an
     * article with no more than `keep` has none to remove (most writes: a new article's first).
     */
    async keepNewest(documentId: string, newest: number, keep: number): Promise<void> {
      if (newest - keep < 1) return;
      await table()
        .where('article_document_id', documentId)
        .andWhere('number', '<=', newest - keep)
        .delete();
    },

    /**
     * Removes up to `batch` revisions made before `before` (epoch ms), found through the created_at
     * index; an article's newest revision stays whatever its age, since it is the article as it
     * stands. Returns how many were removed.
     */
    async removeOlderThan(before: number, batch: number): Promise<number> {
      const knex = database(strapi);
      const newer = knex(`${TABLES.revisions} as newer`)
        .select(knex.raw('1'))
        .whereRaw('newer.article_document_id = old.article_document_id')
        .andWhereRaw('newer.number > old.number');
      const rows = (await knex(`${TABLES.revisions} as old`)
        .select('old.id')
        .where('old.created_at', '<', isSqlite(strapi) ? before : new Date(before))
        .whereExists(newer)
        .limit(batch)) as Array<{ id: number | string }>;
      const ids = rows.map((row) => Number(row.id));
      if (ids.length > 0) await knex(TABLES.revisions).whereIn('id', ids).delete();
      return ids.length;
    },
  };
}
