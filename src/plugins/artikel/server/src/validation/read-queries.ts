import { yup } from '@strapi/utils';
import { isBlank } from '../utils/blank';
import { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT } from '../constants';
import { SEARCH_LIMITS, searchText, searchWordsOf, withinSearchLimits } from '../utils/search-words';
import { cursorProblemMessage } from '../domain/list-cursor';
import { type InferInput, textValue, validateInput, validateQuery } from './validate';

const WHOLE_NUMBER = /^[0-9]+$/;
// A cursor this service issues is about 150 characters.
const MAX_CURSOR_CHARACTERS = 1024;

/** The orders a list can have (see docs/api.md, "Search and discovery"). */
export const LIST_SORTS = ['newest', 'relevance', 'views'] as const;
export type ListSort = (typeof LIST_SORTS)[number];

const CURSOR_NEEDS_NEWEST =
  'cursor works only with sort=newest (sort=relevance and sort=views page by number): start again from the first page without cursor, and follow links.next as it is';

export const positiveWholeNumber = (name: string) =>
  textValue()
    .test(
      'whole-number',
      `${name} must be a whole number of at least 1`,
      (value) => value === undefined || (WHOLE_NUMBER.test(value) && Number(value) >= 1),
    )
    .test(
      'safe-integer',
      `${name} must be at most ${Number.MAX_SAFE_INTEGER}`,
      (value) => value === undefined || !WHOLE_NUMBER.test(value) || Number.isSafeInteger(Number(value)),
    );

const { words: MAX_WORDS, wordCharacters: MAX_WORD_CHARACTERS, characters: MAX_CHARACTERS } = SEARCH_LIMITS;

export const listQuerySchema = yup.object({
  q: textValue().test(
    'search-limits',
    `q may hold at most ${MAX_WORDS} words of at most ${MAX_WORD_CHARACTERS} characters, ${MAX_CHARACTERS} characters in all: shorten the search`,
    (value) => value === undefined || withinSearchLimits(searchText(value)),
  ),
  // No length limits: a long kategori or tag is one lookup that matches nothing, and the HTTP
  // server already refuses request lines over 16 KB.

  kategori: textValue(),
  tag: textValue(),
  limit: positiveWholeNumber('limit'),
  page: positiveWholeNumber('page'),
  format: textValue().oneOf(['json', 'csv'], 'format must be json or csv'),
  sort: textValue()
    .oneOf([...LIST_SORTS], 'sort must be newest, relevance or views')
    .test('relevance-needs-q', 'sort=relevance needs q: the words to rank the articles by', function needsWords(value) {
      const parent = this.parent as { q?: string };
      return value !== 'relevance' || searchWordsOf(searchText(parent.q ?? '')).length > 0;
    }),
  // Checked, and bound to this query, by services/list-cursors.ts; here only its size, and that
  // the list is newest first: a cursor holds a position in that order (relevance and views page by number).
  cursor: textValue()
    .max(MAX_CURSOR_CHARACTERS, cursorProblemMessage('not-issued', 0))
    .test('newest-only', CURSOR_NEEDS_NEWEST, function newestOnly(value) {
      const parent = this.parent as { sort?: string };
      return value === undefined || isBlank(value) || parent.sort === undefined || parent.sort === 'newest';
    }),
});

const noParametersSchema = yup.object({});

const previewPageSchema = yup.object({
  version: textValue().oneOf(['draft', 'published'], 'version must be draft or published (by default draft)'),
});

/** The version a preview page shows (`version`, by default the draft); nothing else. */
export async function validatePreviewPageQuery(query: unknown): Promise<'draft' | 'published'> {
  const raw = await validateQuery<InferInput<typeof previewPageSchema>>(previewPageSchema, query);
  return raw.version === 'published' ? 'published' : 'draft';
}

export interface ListQuery {
  words: string[];
  kategori: string | null;
  tag: string | null;
  limit: number;
  page: number;
  /** The walk's cursor, as sent (see services/list-cursors.ts); null for a page by number. */
  cursor: string | null;
  sort: ListSort;
  /** Whether the request named its sort (meta.sort says what was sorted only then: older clients see the meta they knew). */
  sortNamed: boolean;
}

/** The list's query as the schema admits it, before it is read into a ListQuery. */
type RawListQuery = InferInput<typeof listQuerySchema>;

function nonBlank(value: string | undefined): string | null {
  return value === undefined || isBlank(value) ? null : value.trim();
}

/** The representation a list asks for (`?format=csv` for spreadsheets); JSON by default. */
export type ListFormat = 'json' | 'csv';

export async function validateListQuery(query: unknown): Promise<ListQuery> {
  return (await validateListRequest(query)).query;
}

/** The list's query and the representation it asks for. */
export async function validateListRequest(query: unknown): Promise<{ query: ListQuery; format: ListFormat }> {
  const raw = await validateQuery<RawListQuery>(listQuerySchema, query);
  return { query: listQueryOf(raw), format: raw.format === 'csv' ? 'csv' : 'json' };
}

function listQueryOf(raw: RawListQuery): ListQuery {
  return {
    words: searchWordsOf(searchText(raw.q ?? '')),
    kategori: nonBlank(raw.kategori),
    tag: nonBlank(raw.tag),
    limit: Math.min(raw.limit === undefined ? LIST_DEFAULT_LIMIT : Number(raw.limit), LIST_MAX_LIMIT),
    page: raw.page === undefined ? 1 : Number(raw.page),
    cursor: nonBlank(raw.cursor),
    sort: (raw.sort as ListSort | undefined) ?? 'newest',
    sortNamed: raw.sort !== undefined,
  };
}

/** The whole export's query: the list's filters, and whether the file starts with a byte order mark. */
const exportQuerySchema = yup.object({
  q: listQuerySchema.fields.q as yup.StringSchema,
  kategori: textValue(),
  tag: textValue(),
  bom: textValue().oneOf(['true', 'false'], 'bom must be "true" or "false"'),
});

/** GET /api/artikel/export.csv's query: q, kategori and tag as on the list, and bom. */
export async function validateExportQuery(query: unknown): Promise<{ query: ListQuery; bom: boolean }> {
  const raw = await validateQuery<InferInput<typeof exportQuerySchema>>(exportQuerySchema, query);
  return { query: listQueryOf({ q: raw.q, kategori: raw.kategori, tag: raw.tag }), bom: raw.bom !== 'false' };
}

const slugSchema = yup.object({ slug: textValue() });

const createQuerySchema = yup.object({
  dry_run: textValue().oneOf(['true', 'false'], 'dry_run must be "true" or "false"'),
});

/** POST's query: only dry_run, which checks and shapes the article without storing it. */
export async function validateCreateQuery(query: unknown): Promise<{ dryRun: boolean }> {
  const raw = await validateQuery<InferInput<typeof createQuerySchema>>(createQuerySchema, query);
  return { dryRun: raw.dry_run === 'true' };
}

/** A slug in the path: any text is looked up (an unknown one is a 404), but one PostgreSQL could not even compare is a 400. */
export async function validateSlug(slug: string): Promise<string> {
  await validateInput<InferInput<typeof slugSchema>>(slugSchema, { slug }, 'path');
  return slug;
}

const latestQuerySchema = yup.object({ format: textValue().oneOf(['json', 'csv'], 'format must be json or csv') });
const articleQuerySchema = yup.object({ format: textValue().oneOf(['json', 'md'], 'format must be json or md') });

/** The latest's only parameter: `format=csv`. */
export async function validateLatestQuery(query: unknown): Promise<ListFormat> {
  const raw = await validateQuery<InferInput<typeof latestQuerySchema>>(latestQuerySchema, query);
  return raw.format === 'csv' ? 'csv' : 'json';
}

/** An article's only parameter: `format=md` (Markdown; also asked for with Accept: text/markdown). */
export async function validateArticleQuery(query: unknown): Promise<'json' | 'md' | null> {
  const raw = await validateQuery<InferInput<typeof articleQuerySchema>>(articleQuerySchema, query);
  return raw.format === 'md' ? 'md' : raw.format === 'json' ? 'json' : null;
}

/** The other reads take no parameters; an unexpected one is an error rather than silently ignored. */
export async function validateNoParameters(query: unknown): Promise<void> {
  await validateQuery<Record<string, never>>(noParametersSchema, query);
}

const feedSchema = yup.object({
  format: textValue().oneOf(['rss', 'atom', 'json'], 'the feed format must be rss, atom or json'),
  kategori: textValue(),
});

/** A feed's format (from the path) and its optional category slug (kategori); nothing else. */
export async function validateFeedQuery(
  format: string,
  query: unknown,
): Promise<{ format: 'rss' | 'atom' | 'json'; category: string | null }> {
  const raw = await validateQuery<{ format: 'rss' | 'atom' | 'json'; kategori?: string }>(feedSchema, { ...(query as object), format });
  return { format: raw.format, category: nonBlank(raw.kategori)?.toLowerCase() ?? null };
}

const sitemapFileSchema = yup.object({ page: positiveWholeNumber('page') });

/** The number of a sitemap file in the path (1, 2, ...); no query parameters. */
export async function validateSitemapFile(page: string, query: unknown): Promise<number> {
  await validateNoParameters(query);
  const raw = await validateInput<InferInput<typeof sitemapFileSchema>>(sitemapFileSchema, { page }, 'path');
  return Number(raw.page);
}
