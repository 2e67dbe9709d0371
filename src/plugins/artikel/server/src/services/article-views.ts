import type { Core } from '@strapi/strapi';
import { TABLES } from '../constants';

type RawResult = { rows?: Array<{ views: number | string }> } | Array<{ views: number | string }>;

function rowsOf(result: RawResult): Array<{ views: number | string }> {
  return Array.isArray(result) ? result : result.rows ?? [];
}

const articleViews = ({ strapi }: { strapi: Core.Strapi }) => ({
  /** Adds one view and returns the new count, in one atomic statement (SQLite 3.35+ and PostgreSQL). */
  async countView(documentId: string): Promise<number> {
    // An upsert with RETURNING is one statement; the query builder would need a read and a write.
    const result = (await strapi.db.connection.raw(
      `INSERT INTO ${TABLES.views} (document_id, views) VALUES (?, 1)
       ON CONFLICT (document_id) DO UPDATE SET views = ${TABLES.views}.views + 1
       RETURNING views`,
      [documentId],
    )) as RawResult;
    return Number(rowsOf(result)[0]?.views ?? 1);
  },

  async currentViews(documentId: string): Promise<number> {
    const row = (await strapi.db.connection(TABLES.views).select('views').where({ document_id: documentId }).first()) as { views: number } | undefined;
    return Number(row?.views ?? 0);
  },

  /** The current count of each of these documents (0 for one never read). */
  async viewsOf(documentIds: string[]): Promise<Map<string, number>> {
    if (documentIds.length === 0) return new Map();
    const rows = (await strapi.db.connection(TABLES.views).select('document_id', 'views').whereIn('document_id', documentIds)) as Array<{ document_id: string; views: number }>;
    return new Map(rows.map((row) => [row.document_id, Number(row.views)]));
  },

  async forget(documentId: string): Promise<void> {
    await strapi.db.connection(TABLES.views).where({ document_id: documentId }).delete();
  },
});

export default articleViews;
