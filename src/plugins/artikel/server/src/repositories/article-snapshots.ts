import type { Core } from '@strapi/strapi';
import { ARTICLE_UID, TABLES } from '../constants';
import { type ArticleSnapshot, ARTICLE_TEXT_FIELDS } from '../domain/article-revisions';
import { database } from '../infrastructure/transactions';
import { toIsoString } from '../utils/dates';

interface DraftRow {
  id: number | string;
  publish_at: unknown;
  generated_fields: unknown;
  category_name: string | null;
  category_slug: string | null;
  published_rows: number | string;
  [field: string]: unknown;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** generated_fields as stored: JSON text on SQLite, already parsed on PostgreSQL. */
function generatedFields(stored: unknown): string[] {
  let value = stored;
  if (typeof stored === 'string') {
    try {
      value = JSON.parse(stored);
    } catch {
      value = [];
    }
  }
  return Array.isArray(value) ? value.filter((field): field is string => typeof field === 'string') : [];
}

/**
 * An article as it stands in the caller's transaction, as a revision keeps it: its draft row (the
 * newest text) with its category, whether a published row exists, and its photos. Read with SQL
 * in two queries, on every write of an article: the Document Service's populate costs several
 * times more, which a write with its revision would pay twice (see bench/revision-cost.js).
 * `version: 'published'` reads the published row instead (what is live), the same way.
 */
export async function articleSnapshot(
  strapi: Core.Strapi,
  documentId: string,
  version: 'draft' | 'published' = 'draft',
): Promise<ArticleSnapshot | null> {
  const knex = database(strapi);
  const draft = (await knex({ a: TABLES.articles })
    .leftJoin({ l: TABLES.articleCategoryLinks }, 'l.article_id', 'a.id')
    .leftJoin({ c: TABLES.categories }, 'c.id', 'l.category_id')
    .select(
      'a.id',
      'a.publish_at',
      'a.generated_fields',
      ...ARTICLE_TEXT_FIELDS.map((field) => `a.${field}`),
      'c.name as category_name',
      'c.slug as category_slug',
      knex(`${TABLES.articles} as p`).count('*').where('p.document_id', documentId).whereNotNull('p.published_at').as('published_rows'),
    )
    .where('a.document_id', documentId)
    .where((row) => (version === 'draft' ? row.whereNull('a.published_at') : row.whereNotNull('a.published_at')))
    .first()) as DraftRow | undefined;
  if (draft === undefined) return null;
  const photos = (await knex(TABLES.mediaLinks)
    .select('file_id', 'field')
    .where({ related_id: draft.id, related_type: ARTICLE_UID })
    .whereIn('field', ['cover', 'gallery'])
    .orderBy('order')) as Array<{ file_id: number | string; field: string }>;
  const publishAt = toIsoString(draft.publish_at);
  return {
    fields: Object.fromEntries(ARTICLE_TEXT_FIELDS.map((field) => [field, text(draft[field])])) as ArticleSnapshot['fields'],
    category:
      draft.category_name !== null && draft.category_slug !== null ? { name: draft.category_name, slug: draft.category_slug } : null,
    cover: photos.filter((photo) => photo.field === 'cover').map((photo) => Number(photo.file_id))[0] ?? null,
    gallery: photos.filter((photo) => photo.field === 'gallery').map((photo) => Number(photo.file_id)),
    status: Number(draft.published_rows) > 0 ? 'published' : publishAt !== null ? 'scheduled' : 'draft',
    publish_at: publishAt,
    generated: generatedFields(draft.generated_fields),
  };
}
