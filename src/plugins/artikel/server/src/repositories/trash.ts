import type { Core } from '@strapi/strapi';
import { TABLES } from '../constants';
import { type ArticleSnapshot, parseSnapshot, type RevisionActor } from '../domain/article-revisions';
import { isSqlite } from '../infrastructure/database-dialect';
import { database, readDatabase } from '../infrastructure/transactions';
import { toIsoString } from '../utils/dates';
import { newDocumentId } from '../utils/document-id';

/** An article in the trash, as editors see it. */
export interface TrashEntry {
  documentId: string;
  slug: string;
  title: string;
  deletedAt: string;
  deletedBy: Pick<RevisionActor, 'kind' | 'name'>;
  wasPublishedAt: string | null;
  purgeAfter: string;
  /** The admin user who created the article (whom a role's "is creator" condition names); null for a token's or script's. */
  creatorId: number | null;
}

export interface TrashedArticle extends TrashEntry {
  snapshot: ArticleSnapshot;
}

const ENTRY_COLUMNS = [
  'article_document_id',
  'slug',
  'title',
  'created_at',
  'deleted_by_kind',
  'deleted_by_name',
  'was_published_at',
  'purge_after',
  'creator_id',
];

interface EntryRow {
  article_document_id: string;
  slug: string;
  title: string;
  created_at: unknown;
  deleted_by_kind: unknown;
  deleted_by_name: unknown;
  was_published_at: unknown;
  purge_after: unknown;
  creator_id: unknown;
}

const ACTOR_KINDS: ReadonlyArray<RevisionActor['kind']> = ['editor', 'api-token', 'mcp', 'schedule', 'system'];

function parseEntry(row: EntryRow): TrashEntry {
  return {
    documentId: row.article_document_id,
    slug: row.slug,
    title: row.title,
    deletedAt: toIsoString(row.created_at) ?? new Date(0).toISOString(),
    deletedBy: {
      kind: ACTOR_KINDS.includes(row.deleted_by_kind as RevisionActor['kind']) ? (row.deleted_by_kind as RevisionActor['kind']) : 'system',
      name: typeof row.deleted_by_name === 'string' ? row.deleted_by_name : null,
    },
    wasPublishedAt: toIsoString(row.was_published_at),
    purgeAfter: toIsoString(row.purge_after) ?? new Date(0).toISOString(),
    creatorId:
      row.creator_id === null || row.creator_id === undefined || !Number.isSafeInteger(Number(row.creator_id))
        ? null
        : Number(row.creator_id),
  };
}

/**
 * The rows of the content type plugin::artikel.trashed-article (table artikel_trash): one per
 * deleted article until it is restored or purged, holding its last version, its slug (no other
 * article may take it meanwhile) and when it may be purged. Written with SQL in the delete's own
 * transaction, Strapi's own columns filled as for view counts.
 */
export function trash(strapi: Core.Strapi) {
  const table = () => database(strapi)(TABLES.trash);
  const stored = (ms: number): Date | number => (isSqlite(strapi) ? ms : new Date(ms));

  return {
    async insert(entry: {
      documentId: string;
      slug: string;
      title: string;
      deletedBy: RevisionActor;
      wasPublishedAt: string | null;
      purgeAfterMs: number;
      snapshot: ArticleSnapshot;
      creatorId: number | string | null;
    }): Promise<void> {
      const now = stored(Date.now());
      await table()
        .insert({
          document_id: newDocumentId(),
          article_document_id: entry.documentId,
          slug: entry.slug,
          title: entry.title,
          deleted_by_kind: entry.deletedBy.kind,
          deleted_by_name: entry.deletedBy.name,
          was_published_at: entry.wasPublishedAt === null ? null : stored(Date.parse(entry.wasPublishedAt)),
          purge_after: stored(entry.purgeAfterMs),
          creator_id: entry.creatorId === null ? null : Number(entry.creatorId),
          snapshot: JSON.stringify(entry.snapshot),
          created_at: now,
          updated_at: now,
          published_at: now,
        })
        .onConflict('article_document_id')
        .merge();
    },

    /** Every article in the trash, the most recently deleted first. */
    async list(): Promise<TrashEntry[]> {
      const rows = (await table().select(ENTRY_COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc')) as EntryRow[];
      return rows.map(parseEntry);
    },

    async one(documentId: string): Promise<TrashedArticle | null> {
      const row = (await table()
        .select([...ENTRY_COLUMNS, 'snapshot'])
        .where('article_document_id', documentId)
        .first()) as (EntryRow & { snapshot: unknown }) | undefined;
      return row === undefined ? null : { ...parseEntry(row), snapshot: parseSnapshot(row.snapshot) };
    },

    async remove(documentId: string): Promise<void> {
      await table().where('article_document_id', documentId).delete();
    },

    /** The trashed article that holds this slug, or null (asked by the admin's slug field: on SQLite's read connection). */
    async holderOf(slug: string): Promise<string | null> {
      const row = (await readDatabase(strapi)(TABLES.trash).select('article_document_id').where('slug', slug).first()) as
        { article_document_id: string } | undefined;
      return row?.article_document_id ?? null;
    },

    /** Up to `batch` trashed articles whose time is up, through the purge_after index. */
    async expired(batch: number): Promise<string[]> {
      const rows = (await table().select('article_document_id').where('purge_after', '<', stored(Date.now())).limit(batch)) as Array<{
        article_document_id: string;
      }>;
      return rows.map((row) => row.article_document_id);
    },
  };
}
