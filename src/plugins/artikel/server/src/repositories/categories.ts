import type { Core } from '@strapi/strapi';
import { TABLES } from '../constants';
import { isSqlite } from '../infrastructure/database-dialect';
import { database } from '../infrastructure/transactions';

/**
 * The document id of the category a writer named: by its name or its slug in any case, or by the
 * slug the name makes; null when none is. Read in the current transaction, with the comparison the
 * Document Service's $eqi filter makes (LOWER on both sides; PostgreSQL casts the column as it
 * does), straight from the table: a POST names a category on every write, and the Document
 * Service's parameter transforms and middlewares cost more than the query itself.
 */
export async function categoryNamed(strapi: Core.Strapi, name: string, slug: string): Promise<string | null> {
  const lower = isSqlite(strapi) ? 'LOWER(??)' : 'LOWER(CAST(?? AS VARCHAR))';
  const row = (await database(strapi)(TABLES.categories)
    .select('document_id')
    .where((either) =>
      either.whereRaw(`${lower} = LOWER(?)`, ['name', name]).orWhereRaw(`${lower} = LOWER(?)`, ['slug', name]).orWhere('slug', slug),
    )
    .first()) as { document_id: string } | undefined;
  return row?.document_id ?? null;
}
