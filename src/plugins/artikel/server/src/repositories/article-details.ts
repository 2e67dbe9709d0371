import type { Core } from '@strapi/strapi';
import { ARTICLE_UID, PHOTO_FILE_FIELDS } from '../constants';

/** The fields of an image that an article's detail record shows. */
const MEDIA_FIELDS = [
  'url',
  'alternativeText',
  'caption',
  'width',
  'height',
  'mime',
  'formats',
  PHOTO_FILE_FIELDS.placeholder,
  PHOTO_FILE_FIELDS.color,
  PHOTO_FILE_FIELDS.exif,
];

/** A populated relation's columns: its ids, as the Document Service always adds them, and the fields asked for. */
const withIds = (fields: string[]): string[] => ['id', 'documentId', ...fields];

const CATEGORY = { select: withIds(['name', 'slug']) };
const PHOTO = { select: withIds(MEDIA_FIELDS) };

/** What is read with the article: its category; its category and creator (a write, which authorizes on it); or its category and photos (cover, gallery). */
const POPULATES = {
  category: { category: CATEGORY },
  write: { category: CATEGORY, createdBy: { select: ['id'] } },
  detail: { category: CATEGORY, cover: PHOTO, gallery: PHOTO },
};

/**
 * An article's draft or published version, all its fields, with its category (name, slug) or its
 * category and its photos when asked (no relation otherwise), in the current transaction: the entity the Document Service's findOne
 * with that populate gives, read through the query engine beneath it. For articles (draft and
 * publish, not localized) the Document Service only turns the status into the publishedAt
 * condition and the fields into these selects, and doing so took about a millisecond of every
 * write's answer and of a PATCH's looks at the article, more than the queries themselves.
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
