import type { Core } from '@strapi/strapi';
import { ARTICLE_UID } from '../constants';
import type { OwnedArticle } from '../domain/article-owner';

export interface OwnerRow {
  documentId?: unknown;
  slug?: unknown;
  createdBy?: { id?: unknown } | null;
}

const idOf = (value: unknown): number | string | null => (typeof value === 'number' || typeof value === 'string' ? value : null);

/**
 * An article as the permission conditions see it: its document id, current slug and creator (the
 * draft row holds them whatever the status), in the current transaction; null when there is none.
 */
export async function ownedArticle(strapi: Core.Strapi, documentId: string): Promise<OwnedArticle | null> {
  const row = (await strapi.db.query(ARTICLE_UID).findOne({
    where: { documentId, publishedAt: null },
    select: ['documentId', 'slug'],
    populate: { createdBy: { select: ['id'] } },
  })) as OwnerRow | null;
  return row === null ? null : ownedArticleOf(documentId, row);
}

/** Several articles as the permission conditions see them, by document id (those that exist). */
export async function ownedArticles(strapi: Core.Strapi, documentIds: readonly string[]): Promise<Map<string, OwnedArticle>> {
  if (documentIds.length === 0) return new Map();
  const rows = (await strapi.db.query(ARTICLE_UID).findMany({
    where: { documentId: { $in: [...documentIds] }, publishedAt: null },
    select: ['documentId', 'slug'],
    populate: { createdBy: { select: ['id'] } },
  })) as OwnerRow[];
  return new Map(
    rows
      .filter((row) => typeof row.documentId === 'string')
      .map((row) => [row.documentId as string, ownedArticleOf(row.documentId as string, row)]),
  );
}

/** An article row read with its creator (see articleEntity's `write`), as the permission conditions see it. */
export function ownedArticleOf(documentId: string, row: OwnerRow): OwnedArticle {
  return { documentId, slug: typeof row.slug === 'string' ? row.slug : null, createdById: idOf(row.createdBy?.id) };
}
