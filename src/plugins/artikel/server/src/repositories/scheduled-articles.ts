import type { Core } from '@strapi/strapi';
import { TABLES } from '../constants';
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
