/**
 * The admin routes' answers, as the server's controllers send them and the admin's panels read
 * them: one declaration for both sides, so a change of either fails to compile instead of
 * failing in an editor's browser. Paths are relative to the admin's base (`useFetchClient`).
 */
import { PLUGIN_ID } from './plugin-id';

/** Who made a write: an editor in the admin, an API token, an agent through MCP (an admin token's owner), the scheduler, or a script. */
export type ActorKind = 'editor' | 'api-token' | 'mcp' | 'schedule' | 'system';

/** The writes a revision can record. */
export type RevisionAction = 'create' | 'update' | 'publish' | 'unpublish' | 'schedule' | 'restore' | 'baseline';

export interface ActorRecord {
  kind: ActorKind;
  id: string | null;
  name: string | null;
}

/** A revision in the Revisions panel's list. */
export interface RevisionEntryRecord {
  number: number;
  action: RevisionAction;
  created_at: string;
  actor: ActorRecord;
  restored_from: number | null;
  /** The fields the write changed (the server's COMPARED_FIELDS). */
  changed: string[];
}

/** What a revision changed in the title, summary or content, word by word. */
export interface TextChangeRecord {
  field: 'title' | 'summary' | 'content';
  parts: Array<{ kind: 'same' | 'removed' | 'added'; text: string }>;
}

/** One revision whole: the list's entry, the article as it kept it, and its word changes. */
export interface RevisionRecord extends RevisionEntryRecord {
  article: Record<string, unknown>;
  /** The revision text_changes are told against: the one before it, or the one asked for with ?against=; null for the first. */
  compared_with: number | null;
  text_changes: TextChangeRecord[];
}

/** A trashed article on the trash page. */
export interface TrashRecord {
  document_id: string;
  slug: string;
  title: string;
  deleted_at: string;
  deleted_by: Pick<ActorRecord, 'kind' | 'name'>;
  was_published_at: string | null;
  purge_after: string;
}

/** An article in the "most read" widget. */
export interface MostReadRecord {
  document_id: string;
  title: string;
  slug: string;
  views: number;
}

/** Each admin route's answer body. */
export interface AdminAnswers {
  revisions: { data: RevisionEntryRecord[]; meta: { keep: number } };
  revision: { data: RevisionRecord };
  trash: { data: TrashRecord[] };
  trashSettings: { data: { keep_days: number } };
  restoredFromTrash: { data: { documentId: string; slug: string } };
  emptiedTrash: { data: { purged: number } };
  views: { data: { document_id: string; views: number } };
  mostRead: { data: MostReadRecord[] };
}

const encoded = encodeURIComponent;

/** The admin routes' paths (see server/src/routes), for the admin's fetch client. */
export const ADMIN_PATHS = {
  revisions: (documentId: string) => `/${PLUGIN_ID}/revisions/${encoded(documentId)}`,
  revision: (documentId: string, number: number, against?: number) =>
    `/${PLUGIN_ID}/revisions/${encoded(documentId)}/${number}${against === undefined ? '' : `?against=${against}`}`,
  restoreRevision: (documentId: string, number: number) => `/${PLUGIN_ID}/revisions/${encoded(documentId)}/${number}/restore`,
  trash: () => `/${PLUGIN_ID}/trash`,
  trashSettings: () => `/${PLUGIN_ID}/trash/settings`,
  trashEntry: (documentId: string) => `/${PLUGIN_ID}/trash/${encoded(documentId)}`,
  restoreFromTrash: (documentId: string) => `/${PLUGIN_ID}/trash/${encoded(documentId)}/restore`,
  views: (documentId: string) => `/${PLUGIN_ID}/views/${encoded(documentId)}`,
  mostRead: () => `/${PLUGIN_ID}/most-read`,
} as const;
