import type { Core } from '@strapi/strapi';
import { TABLES } from '../constants';
import { isSqlite } from '../infrastructure/database-dialect';
import { escapeLike } from './like-patterns';
import { database } from '../infrastructure/transactions';
import type { Knex } from 'knex';

/** Where each type's slugs are held: an article's by its draft row (it always has one), a category's by its row. */
const SLUG_ROWS = {
  article: { table: TABLES.articles, draftRowsOnly: true },
  category: { table: TABLES.categories, draftRowsOnly: false },
} as const;

export type SlugHolder = keyof typeof SLUG_ROWS;

/**
 * The slugs equal to `base` or starting with `base-`, of documents other than `exceptDocumentId`,
 * read in the current transaction. SQLite: as a range of the slug index ("base-" up to "base.",
 * the character after "-"), since its LIKE ignores case and so cannot use that index: a scan of
 * every article took 24 ms a write at 10,000 articles. PostgreSQL: by LIKE, as its text collation
 * does not order "-" and "." by their code.
 */
export async function slugsOfBase(strapi: Core.Strapi, holder: SlugHolder, base: string, exceptDocumentId?: string): Promise<string[]> {
  const { table, draftRowsOnly } = SLUG_ROWS[holder];
  const query = database(strapi)(table).select('slug');
  if (draftRowsOnly) query.whereNull('published_at');
  if (exceptDocumentId !== undefined) query.whereNot('document_id', exceptDocumentId);
  query.where((either) => equalOrSuffixed(strapi, either, base));
  if (holder === 'article') {
    // An article's old slugs stay its own (they answer with a redirect to it) until it is purged;
    // so does the slug of an article in the trash, which may be restored. One round trip for the
    // three tables: a write asks this before every insert.
    const old = database(strapi)(TABLES.oldSlugs).select('slug');
    if (exceptDocumentId !== undefined) old.whereNot('document_id', exceptDocumentId);
    const trashed = database(strapi)(TABLES.trash).select('slug');
    if (exceptDocumentId !== undefined) trashed.whereNot('article_document_id', exceptDocumentId);
    // Unwrapped: SQLite refuses a parenthesised member of a compound SELECT.
    query.unionAll(
      [old.where((either) => equalOrSuffixed(strapi, either, base)), trashed.where((either) => equalOrSuffixed(strapi, either, base))],
      false,
    );
  }
  const rows = (await query) as Array<{ slug: string | null }>;
  return rows.map((row) => row.slug ?? '');
}

/** slug = base, or slug starts with "base-" (see slugsOfBase for why each store asks differently). */
function equalOrSuffixed(strapi: Core.Strapi, either: Knex.QueryBuilder, base: string): void {
  either.where('slug', base);
  if (isSqlite(strapi)) either.orWhere((range) => range.where('slug', '>=', `${base}-`).andWhere('slug', '<', `${base}.`));
  else either.orWhereRaw("slug LIKE ? ESCAPE '\\'", [`${escapeLike(`${base}-`)}%`]);
}

/** The document id of the article whose current slug this is (its draft row holds it, whatever its status), or null. */
export async function articleWithSlug(strapi: Core.Strapi, slug: string): Promise<string | null> {
  const row = (await database(strapi)(TABLES.articles).select('document_id').whereNull('published_at').where('slug', slug).first()) as
    { document_id: string } | undefined;
  return row?.document_id ?? null;
}

/** An article's current slug (its draft row's), or null when it has none. */
export async function currentSlugOf(strapi: Core.Strapi, documentId: string): Promise<string | null> {
  const row = (await database(strapi)(TABLES.articles)
    .select('slug')
    .where('document_id', documentId)
    .whereNull('published_at')
    .first()) as { slug: string | null } | undefined;
  return row?.slug || null;
}
