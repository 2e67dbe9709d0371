/**
 * What a committed write can have changed in the public reads: one article (its own page, the
 * published set, and the related articles of those sharing its tags or its category, by its
 * published version after the write); only the published set's reads (a new category that no
 * article is in yet: the category list); or anything (a category shows in all its articles, a
 * photo wherever it is used, a data transfer writes everything).
 */
export type WrittenScope = { documentId: string; tagKeys: string[]; categoryId: number | null } | 'published' | 'everything';

/** The scope as text, for other instances (a PostgreSQL notice's payload). */
export function writtenScopeToText(scope: WrittenScope): string {
  if (scope === 'everything') return '*';
  return scope === 'published' ? 'published' : JSON.stringify(scope);
}

/** Reads a scope back; anything it does not recognize (another version of the service) counts as "everything". */
export function writtenScopeFromText(text: string): WrittenScope {
  if (text === 'published') return 'published';
  try {
    const parsed = JSON.parse(text) as { documentId?: unknown; tagKeys?: unknown; categoryId?: unknown };
    const tagKeys = Array.isArray(parsed.tagKeys) && parsed.tagKeys.every((key) => typeof key === 'string') ? (parsed.tagKeys as string[]) : null;
    const categoryId = parsed.categoryId === null || typeof parsed.categoryId === 'number' ? parsed.categoryId : undefined;
    if (typeof parsed.documentId === 'string' && tagKeys !== null && categoryId !== undefined) return { documentId: parsed.documentId, tagKeys, categoryId };
  } catch {
    // Not JSON: "*" or unknown.
  }
  return 'everything';
}
