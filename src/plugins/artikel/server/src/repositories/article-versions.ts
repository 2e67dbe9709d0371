import { createHash } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { TABLES } from '../constants';
import { readDatabase } from '../infrastructure/transactions';

interface VersionRow {
  slug: string | null;
  updated_at: unknown;
  published_at: unknown;
  publish_at: unknown;
}

/** A time as its milliseconds, whichever form the driver gives it (a Date on PostgreSQL, a number or text on SQLite). */
const millis = (value: unknown): string => {
  if (value === null || value === undefined) return '-';
  const time = value instanceof Date ? value.getTime() : new Date(value as string | number).getTime();
  return Number.isNaN(time) ? String(value) : String(time);
};

/**
 * The version of an article: a digest of what any write of it changes (each row's last change, its
 * publication, its schedule and slug), and of nothing else. View counts live in their own table and
 * related articles are other articles, so neither changes it: a client's If-Match stays valid
 * however often the article is read meanwhile. Null for an article that does not exist.
 */
export async function articleVersion(strapi: Core.Strapi, documentId: string): Promise<string | null> {
  // Inside a write, its transaction; else (a public read) SQLite's read connection, never waiting on a write.
  const rows = (await readDatabase(strapi)(TABLES.articles)
    .select('slug', 'updated_at', 'published_at', 'publish_at')
    .where('document_id', documentId)) as VersionRow[];
  if (rows.length === 0) return null;
  const parts = rows
    .map((row) => [row.slug ?? '', millis(row.updated_at), millis(row.published_at), millis(row.publish_at)].join('|'))
    .sort();
  return createHash('sha256').update(parts.join('\n')).digest('base64url').slice(0, 16);
}
