import type { Core } from '@strapi/strapi';
import { ARTICLE_UID } from '../constants';

/** A populated relation's columns: its ids, as the Document Service always adds them, and the fields asked for. */
const withIds = (fields: string[]): string[] => ['id', 'documentId', ...fields];

const CATEGORY = { select: withIds(['name', 'slug']) };

/** What is read with the article: its category; or its category and creator (a write, which authorizes on it). */
const POPULATES = {
  category: { category: CATEGORY },
  write: { category: CATEGORY, createdBy: { select: ['id'] } },
};

/**
 * An article's draft or published version, all its fields, with its category (name, slug) and,
 * when asked, its creator (no relation otherwise), in the current transaction: the entity the Document Service's findOne
 * with that populate gives, read through the query engine beneath it. For articles (draft and
 * publish, not localized) the Document Service only turns the status into the publishedAt
 * condition and the fields into these selects, and doing so took about a millisecond of a
 * PATCH's looks at the article, more than the queries themselves. (A write's answer reads its
 * detail by SQL: see articles/documents.ts, detailOfDocument.)
 * Null when the article has no such version.
 */
export async function articleEntity(
  strapi: Core.Strapi,
  documentId: string,
  status: 'draft' | 'published',
  populate?: keyof typeof POPULATES,
): Promise<unknown> {
  return strapi.db.query(ARTICLE_UID).findOne({
    where: { documentId, publishedAt: status === 'published' ? { $notNull: true } : null },
    ...(populate === undefined ? {} : { populate: POPULATES[populate] }),
  });
}
