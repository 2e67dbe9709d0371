import { diffWords } from 'diff';
import type { ActorKind, RevisionAction } from '../../../shared/admin-api';

/** The text fields of an article an editor or a client sets (a write's fields, kept in every revision). */
export const ARTICLE_TEXT_FIELDS = [
  'title',
  'slug',
  'summary',
  'content',
  'tags',
  'cover_image_url',
  'author',
  'meta_title',
  'meta_description',
  'meta_keywords',
] as const;
export type ArticleTextField = (typeof ARTICLE_TEXT_FIELDS)[number];

export type RevisionStatus = 'published' | 'draft' | 'scheduled';

/**
 * An article as one write left it: what editors and clients can set, its status and schedule, and
 * which defaults were generated (so a restore lets them follow their source again).
 */
export interface ArticleSnapshot {
  fields: Record<ArticleTextField, string | null>;
  category: { name: string; slug: string } | null;
  /** The Media Library's file ids of the cover and the gallery, in order. */
  cover: number | null;
  gallery: number[];
  status: RevisionStatus;
  publish_at: string | null;
  generated: string[];
}

// Who made a write and what it was: the words the admin's panels read too (shared/admin-api.ts).
export type { ActorKind, RevisionAction };

export interface RevisionActor {
  kind: ActorKind;
  id: string | null;
  name: string | null;
}

/**
 * What a write did, named from what it changed (one request may make several document actions: a
 * PATCH unpublishes, updates and publishes again): a first version is a create, a restore says so,
 * a change of status alone is a publish, an unpublish or a schedule, anything else an update.
 */
export function actionOf(
  changed: ComparedField[],
  { first, restored }: { first: boolean; restored: boolean },
  status: RevisionStatus,
): RevisionAction {
  if (first) return 'create';
  if (restored) return 'restore';
  // A write that moved the article on or off the public site is named for that, whatever else it
  // changed (issue "Editors": a publish with edits read "Changed"); its other fields are listed.
  if (changed.includes('status') || (changed.length > 0 && changed.every((field) => field === 'publish_at')))
    return status === 'published' ? 'publish' : status === 'scheduled' ? 'schedule' : 'unpublish';
  return 'update';
}

/** The fields of a snapshot a reader compares, in the order they are listed. */
export const COMPARED_FIELDS = [...ARTICLE_TEXT_FIELDS, 'category', 'cover', 'gallery', 'status', 'publish_at'] as const;
export type ComparedField = (typeof COMPARED_FIELDS)[number];

function comparable(snapshot: ArticleSnapshot, field: ComparedField): string {
  switch (field) {
    case 'category':
      return snapshot.category?.slug ?? '';
    case 'cover':
      return String(snapshot.cover ?? '');
    case 'gallery':
      return snapshot.gallery.join(',');
    case 'status':
      return snapshot.status;
    case 'publish_at':
      return snapshot.publish_at ?? '';
    default:
      return snapshot.fields[field] ?? '';
  }
}

/** The fields in which `after` differs from `before`; every field of a first version. */
export function changedFields(before: ArticleSnapshot | null, after: ArticleSnapshot): ComparedField[] {
  return COMPARED_FIELDS.filter((field) => before === null || comparable(before, field) !== comparable(after, field));
}

/** Whether two snapshots hold the same article (the generated markers included). */
export function sameSnapshot(a: ArticleSnapshot, b: ArticleSnapshot): boolean {
  return changedFields(a, b).length === 0 && [...a.generated].sort().join() === [...b.generated].sort().join();
}

/** Whether two snapshots hold the same text, category and photos (what a restore gives back; not the slug, status or schedule). */
export function sameText(a: ArticleSnapshot, b: ArticleSnapshot): boolean {
  return changedFields(a, b).every((field) => field === 'slug' || field === 'status' || field === 'publish_at');
}

/** A readable change of one text: the runs of words kept, removed and added, in order. */
export interface TextChange {
  field: 'title' | 'summary' | 'content';
  parts: Array<{ kind: 'same' | 'removed' | 'added'; text: string }>;
}

// A word diff costs the words times the edits between them. It gives up past this many edits, or
// this many milliseconds, and the change is then shown whole (removed, then added): a few
// milliseconds at most, however large and however different the two texts.
const DIFF_MAX_EDITS = 200;
const DIFF_MAX_MS = 5;

/** One text's change as whole runs: what it was removed, what it is added. */
const wholeChange = (old: string, now: string): TextChange['parts'] => [
  ...(old === '' ? [] : [{ kind: 'removed' as const, text: old }]),
  ...(now === '' ? [] : [{ kind: 'added' as const, text: now }]),
];

/** What a version changed in the title, the summary and the content, word by word. */
export function textChanges(before: ArticleSnapshot | null, after: ArticleSnapshot): TextChange[] {
  const changes: TextChange[] = [];
  for (const field of ['title', 'summary', 'content'] as const) {
    const old = before?.fields[field] ?? '';
    const now = after.fields[field] ?? '';
    if (old === now) continue;
    const words = diffWords(old, now, { maxEditLength: DIFF_MAX_EDITS, timeout: DIFF_MAX_MS });
    const parts =
      words === undefined
        ? wholeChange(old, now)
        : words.map((part) => ({
            kind: part.added ? ('added' as const) : part.removed ? ('removed' as const) : ('same' as const),
            text: part.value,
          }));
    changes.push({ field, parts });
  }
  return changes;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const idOrNull = (value: unknown): number | null => (typeof value === 'number' && Number.isSafeInteger(value) ? value : null);

/** A stored snapshot (JSON text on SQLite, already parsed on PostgreSQL), read field by field: a value of another shape counts as absent. */
export function parseSnapshot(stored: unknown): ArticleSnapshot {
  let value: unknown = stored;
  if (typeof stored === 'string') {
    try {
      value = JSON.parse(stored);
    } catch {
      value = {};
    }
  }
  const record = isRecord(value) ? value : {};
  const fields = isRecord(record.fields) ? record.fields : {};
  const category = isRecord(record.category) ? record.category : null;
  const status = record.status === 'published' || record.status === 'scheduled' ? record.status : 'draft';
  return {
    fields: Object.fromEntries(ARTICLE_TEXT_FIELDS.map((field) => [field, stringOrNull(fields[field])])) as ArticleSnapshot['fields'],
    category:
      category && typeof category.name === 'string' && typeof category.slug === 'string'
        ? { name: category.name, slug: category.slug }
        : null,
    cover: idOrNull(record.cover),
    gallery: Array.isArray(record.gallery) ? record.gallery.map(idOrNull).filter((id): id is number => id !== null) : [],
    status,
    publish_at: stringOrNull(record.publish_at),
    generated: Array.isArray(record.generated) ? record.generated.filter((field): field is string => typeof field === 'string') : [],
  };
}
