/** Where an article stood among the published ones: its tags and its category. */
export interface ArticlePlace {
  tagKeys: string[];
  categoryId: number | null;
}

/**
 * A committed write of one article: where its published version stands after the write and stood
 * before it, when it was published (null when it is not published after the write: the times that
 * order related articles), the articles its arrival pushed out of a tag's related candidates (see
 * RELATED_CANDIDATES_PER_TAG), and its searchable texts before and after (see searchableText),
 * which only the instance that wrote it knows: a notice to others leaves them out (a PostgreSQL
 * notice holds at most 8000 bytes), and without them every search counts as changed.
 */
export interface ArticleWrite extends ArticlePlace {
  documentId: string;
  previous: ArticlePlace;
  published: { at: number; createdAt: number } | null;
  pushedOut: string[];
  texts?: string[];
}

/**
 * What a committed write can have changed in the public reads: one article (its own page, the
 * published set, and the related articles it can enter or leave); only the published set's reads
 * and which categories a name names (a new category that no article is in yet); or anything (a category shows in
 * all its articles, a photo wherever it is used, a data transfer writes everything).
 */
export type WrittenScope = ArticleWrite | 'published' | 'everything';

/** The scope as text, for other instances (a PostgreSQL notice's payload). */
export function writtenScopeToText(scope: WrittenScope): string {
  if (scope === 'everything') return '*';
  if (scope === 'published') return 'published';
  const { texts: _texts, ...sent } = scope;
  return JSON.stringify(sent);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');
const isCategoryId = (value: unknown): value is number | null => value === null || typeof value === 'number';

function parsePlace(value: unknown): ArticlePlace | null {
  if (!isRecord(value) || !isStringList(value.tagKeys) || !isCategoryId(value.categoryId)) return null;
  return { tagKeys: value.tagKeys, categoryId: value.categoryId };
}

function parsePublished(value: unknown): ArticleWrite['published'] | undefined {
  if (value === null) return null;
  if (!isRecord(value) || typeof value.at !== 'number' || typeof value.createdAt !== 'number') return undefined;
  return { at: value.at, createdAt: value.createdAt };
}

/** Reads a scope back; anything it does not recognize (another version of the service) counts as "everything". */
export function writtenScopeFromText(text: string): WrittenScope {
  if (text === 'published') return 'published';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'everything';
  }
  if (!isRecord(parsed)) return 'everything';
  const place = parsePlace(parsed);
  const previous = parsePlace(parsed.previous);
  const published = parsePublished(parsed.published);
  if (
    typeof parsed.documentId !== 'string' ||
    place === null ||
    previous === null ||
    published === undefined ||
    !isStringList(parsed.pushedOut)
  )
    return 'everything';
  return { documentId: parsed.documentId, ...place, previous, published, pushedOut: parsed.pushedOut };
}
