import type { Core } from '@strapi/strapi';
import { PHOTO_FILE_FIELDS, TABLES, UPLOAD_FILE_UID } from '../constants';
import { isSqlite } from '../infrastructure/database-dialect';
import { firstRow } from '../infrastructure/row-limits';
import { escapeLike } from './like-patterns';

/** A Media Library file as the photo work reads it. */
export interface PhotoFile {
  id: number;
  name: string;
  hash: string;
  ext: string | null;
  mime: string | null;
  url: string;
  /** Kilobytes, as Strapi stores them: with the hash, which "Replace media" keeps, what tells two versions of a file apart. */
  size: number | null;
  width: number | null;
  height: number | null;
  formats: Record<string, Record<string, unknown>>;
  /** Null until the upload (or npm run photos:process) described the photo. */
  placeholder: string | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function parseFormats(value: unknown): Record<string, Record<string, unknown>> {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value) as unknown;
    } catch {
      return {};
    }
  }
  if (!isRecord(parsed)) return {};
  return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, Record<string, unknown>] => isRecord(entry[1])));
}

const textOrNull = (value: unknown) => (typeof value === 'string' ? value : null);
const numberOrNull = (value: unknown) => (value === null || value === undefined || Number.isNaN(Number(value)) ? null : Number(value));

function parsePhotoFile(row: Record<string, unknown>): PhotoFile {
  return {
    id: Number(row.id),
    name: textOrNull(row.name) ?? '',
    hash: textOrNull(row.hash) ?? '',
    ext: textOrNull(row.ext),
    mime: textOrNull(row.mime),
    url: textOrNull(row.url) ?? '',
    size: numberOrNull(row.size),
    width: numberOrNull(row.width),
    height: numberOrNull(row.height),
    formats: parseFormats(row.formats),
    placeholder: textOrNull(row[PHOTO_FILE_FIELDS.placeholder]),
  };
}

export async function findPhotoFile(strapi: Core.Strapi, id: number): Promise<PhotoFile | null> {
  const row = (await strapi.db.query(UPLOAD_FILE_UID).findOne({ where: { id } })) as Record<string, unknown> | null;
  return row === null ? null : parsePhotoFile(row);
}

/** Image files in id order after `afterId`, a page at a time (the one-off photo command walks them all). */
export async function photoFilesAfter(strapi: Core.Strapi, afterId: number, limit: number): Promise<PhotoFile[]> {
  const rows = (await strapi.db.query(UPLOAD_FILE_UID).findMany({
    where: { id: { $gt: afterId }, mime: { $startsWith: 'image/' } },
    orderBy: { id: 'asc' },
    limit,
  })) as Array<Record<string, unknown>>;
  return rows.map(parsePhotoFile);
}

/** One version of a file: "Replace media" keeps its hash (its URL does not change), not its size. */
export type PhotoVersion = Pick<PhotoFile, 'hash' | 'size'>;

export const sameVersion = (a: PhotoVersion, b: PhotoVersion): boolean => a.hash === b.hash && a.size === b.size;

/**
 * Writes a file's formats, only while it still holds the version they were made from; false when
 * the file was deleted or replaced meanwhile. Written through Strapi's query engine, whose
 * lifecycles let the cached reads that show the photo go.
 */
export async function saveFormats(
  strapi: Core.Strapi,
  id: number,
  version: PhotoVersion,
  formats: Record<string, Record<string, unknown>>,
): Promise<boolean> {
  const updated = (await strapi.db
    .query(UPLOAD_FILE_UID)
    .updateMany({ where: { id, hash: version.hash, size: version.size }, data: { formats } })) as { count: number };
  return updated.count > 0;
}

/** Stores the facts the upload reads (the one-off command fills them in for files uploaded before). */
export async function savePhotoFacts(
  strapi: Core.Strapi,
  id: number,
  facts: { placeholder: string | null; color: string | null; exif: unknown },
): Promise<void> {
  await strapi.db.query(UPLOAD_FILE_UID).update({
    where: { id },
    data: {
      [PHOTO_FILE_FIELDS.placeholder]: facts.placeholder,
      [PHOTO_FILE_FIELDS.color]: facts.color,
      [PHOTO_FILE_FIELDS.exif]: facts.exif,
    },
  });
}

/** Which of these Media Library files still exist (a revision's photos may have been deleted since). */
export async function existingFileIds(strapi: Core.Strapi, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = (await strapi.db.query(UPLOAD_FILE_UID).findMany({ where: { id: { $in: [...ids] } }, select: ['id'] })) as Array<{
    id: number;
  }>;
  return new Set(rows.map((row) => row.id));
}

/**
 * Whether a Media Library file holds the stored object of this hash, as its original or as one of
 * its formats (whose hash is the original's with the format's name before it): a failed upload's
 * objects that no file holds are deleted from the store.
 */
export async function holdsStoredObject(strapi: Core.Strapi, hash: string): Promise<boolean> {
  const knex = strapi.db.connection;
  const formatsText = isSqlite(strapi) ? 'formats' : 'CAST(formats AS TEXT)';
  const row = (await firstRow(
    knex(TABLES.files)
      .select('id')
      .where('hash', hash)
      .orWhereRaw(`${formatsText} LIKE ? ESCAPE '\\'`, [`%"${escapeLike(hash)}"%`]),
  )) as { id?: unknown } | undefined;
  return row !== undefined;
}
