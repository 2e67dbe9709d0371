import type { Knex } from './transactions';
import { firstRow } from './row-limits';

// Rows looked at per statement by a walk over a table in batches.
const BATCH_ROWS = 2000;

/**
 * The last document_id of the next batch of rows of a table (ordered by document_id) after
 * `after`; null past the end. A walk over a large table in such batches, one statement each, keeps
 * every statement short: on SQLite a statement holds the whole process (better-sqlite3 is
 * synchronous), and one over a million rows would keep the service from answering for seconds.
 */
export async function lastOfBatch(db: Knex, table: string, after: string): Promise<string | null> {
  const row = (await firstRow(db(table).select('document_id').where('document_id', '>', after).orderBy('document_id'), BATCH_ROWS - 1)) as
    { document_id: string } | undefined;
  if (row !== undefined) return String(row.document_id);
  const last = (await firstRow(db(table).max({ document_id: 'document_id' }).where('document_id', '>', after))) as
    { document_id: string | null } | undefined;
  return last?.document_id == null ? null : String(last.document_id);
}
