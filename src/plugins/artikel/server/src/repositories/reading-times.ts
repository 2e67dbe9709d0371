import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { TABLES } from '../constants';
import { database, longReadRows, readDatabase } from '../infrastructure/transactions';

/** An article row (a draft or a published version) whose reading time was never counted. */
export interface UncountedRow {
  id: number;
  content: string | null;
}

/**
 * Rows written before reading times were counted at write time (or by a tool behind the Document
 * Service, an old export's import), a batch of them after `afterId`, in id order: read through the
 * partial index of such rows (see plugin-tables), so a start that finds none reads nothing. On
 * SQLite it runs on the long-read thread, not on the service's one.
 */
export async function rowsWithoutReadingTime(strapi: Core.Strapi, afterId: number, limit: number): Promise<UncountedRow[]> {
  const rows = (await longReadRows(strapi, uncountedRowsQuery(readDatabase(strapi), afterId, limit))) as Array<{
    id: number | string;
    content: string | null;
  }>;
  return rows.map((row) => ({ id: Number(row.id), content: row.content }));
}

/** The statement of `rowsWithoutReadingTime`, on any connection (a test plans it on the store a service left). */
export function uncountedRowsQuery(connection: Knex, afterId: number, limit: number): Knex.QueryBuilder {
  return connection(TABLES.articles).select('id', 'content').whereNull('reading_time').where('id', '>', afterId).orderBy('id').limit(limit);
}

/** Stores a row's reading time, unless a write counted it meanwhile (from content this may not have read). */
export async function storeReadingTime(strapi: Core.Strapi, id: number, minutes: number): Promise<void> {
  await database(strapi)(TABLES.articles).update({ reading_time: minutes }).where({ id }).whereNull('reading_time');
}
