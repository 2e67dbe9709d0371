import type { Core } from '@strapi/strapi';
import { TABLES } from '../constants';
import { database, readDatabase } from '../infrastructure/transactions';
import { FIELD_LIMITS } from '../utils/field-limits';

interface OldSlugRow {
  slug: string;
  document_id: string;
}

/**
 * The slugs articles moved away from. Each row keeps one old slug for one article (the document,
 * not a slug: a redirect is one hop to wherever the article is now), until the article is deleted
 * or moves back to it. Read and written in the caller's transaction.
 */
export function oldSlugs(strapi: Core.Strapi) {
  const table = () => database(strapi)(TABLES.oldSlugs);
  return {
    /** The article an old slug belongs to, or null. */
    async documentOf(slug: string): Promise<string | null> {
      // Asked by public reads of unknown slugs too: on SQLite's read connection, never behind a write.
      const row = (await readDatabase(strapi)(TABLES.oldSlugs).select('document_id').where('slug', slug).first()) as
        Pick<OldSlugRow, 'document_id'> | undefined;
      return row?.document_id ?? null;
    },

    /** Records that the article left `slug`; a slug it already held stays its. */
    async remember(slug: string, documentId: string): Promise<void> {
      await table().insert({ slug, document_id: documentId, moved_at: Date.now() }).onConflict('slug').merge(['document_id', 'moved_at']);
    },

    /** The article is at `slug` again: it is its current slug, no longer an old one. */
    async forgetSlug(slug: string): Promise<void> {
      await table().where('slug', slug).delete();
    },

    /** A deleted article's old slugs are free for any other article. */
    async forgetDocument(documentId: string): Promise<void> {
      await table().where('document_id', documentId).delete();
    },
  };
}

/** The table, created at every boot if missing; the same on both stores (moved_at: epoch milliseconds). */
export async function ensureOldSlugTable(strapi: Core.Strapi): Promise<void> {
  const knex = strapi.db.connection;
  if (await knex.schema.hasTable(TABLES.oldSlugs)) return;
  await knex.schema.createTable(TABLES.oldSlugs, (table) => {
    table.string('slug', FIELD_LIMITS.slug).primary();
    table.string('document_id', 64).notNullable().index(`${TABLES.oldSlugs}_document_idx`);
    table.bigInteger('moved_at').notNullable();
  });
}
