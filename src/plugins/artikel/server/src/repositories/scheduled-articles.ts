import type { Core } from '@strapi/strapi';
import { ARTICLE_UID, TABLES } from '../constants';
import { isSqlite } from '../infrastructure/database-dialect';
import { readDatabase } from '../infrastructure/transactions';

/**
 * The document ids of up to `limit` drafts whose schedule came due by `now`, oldest first, read on
 * the connection public reads use (on SQLite never waiting behind a write), by the partial index of
 * schedules (SCHEDULED_ARTICLES_INDEX). Times are stored as Strapi writes them: epoch milliseconds
 * on SQLite, timestamps on PostgreSQL.
 */
export async function dueSchedules(strapi: Core.Strapi, now: Date, limit: number): Promise<string[]> {
  const rows = (await readDatabase(strapi)(TABLES.articles)
    .select('document_id')
    .whereNull('published_at')
    .whereNotNull('publish_at')
    .where('publish_at', '<=', isSqlite(strapi) ? now.getTime() : now)
    .orderBy('publish_at', 'asc')
    .limit(limit)) as Array<{ document_id: string }>;
  return rows.map((row) => row.document_id);
}

/** When a draft is scheduled to go live (in the current transaction); null when it is not, or has no draft. */
export async function scheduledTimeOf(strapi: Core.Strapi, documentId: string): Promise<Date | null> {
  const draft = (await strapi.db
    .query(ARTICLE_UID)
    .findOne({ select: ['documentId', 'publish_at'], where: { documentId, publishedAt: null } })) as {
    publish_at?: Date | string | number | null;
  } | null;
  const value = draft?.publish_at;
  return value === null || value === undefined ? null : new Date(value);
}

/** Gives the published version of an article this publication time (see services/publication.ts). */
export async function restampPublishedAt(strapi: Core.Strapi, documentId: string, publishedAt: Date): Promise<void> {
  await strapi.db.query(ARTICLE_UID).updateMany({ where: { documentId, publishedAt: { $notNull: true } }, data: { publishedAt } });
}
