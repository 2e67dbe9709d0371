import { yup } from '@strapi/utils';
import { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT, MAX_QUERY_LENGTH } from '../constants';
import { validateInput } from './validate';

const WHOLE_NUMBER = /^[0-9]+$/;

const positiveWholeNumber = (name: string) =>
  yup
    .string()
    .test('whole-number', `${name} must be a whole number of at least 1`, (value) => value === undefined || (WHOLE_NUMBER.test(value) && Number(value) >= 1))
    .test('safe-integer', `${name} must be at most ${Number.MAX_SAFE_INTEGER}`, (value) => value === undefined || !WHOLE_NUMBER.test(value) || Number.isSafeInteger(Number(value)));

const listQuerySchema = yup.object({
  q: yup.string().max(MAX_QUERY_LENGTH, `q must be at most ${MAX_QUERY_LENGTH} characters`),
  kategori: yup.string().max(200, 'kategori must be at most 200 characters'),
  tag: yup.string().max(200, 'tag must be at most 200 characters'),
  limit: positiveWholeNumber('limit'),
  page: positiveWholeNumber('page'),
});

const noParametersSchema = yup.object({});

export interface ListQuery {
  words: string[];
  kategori: string | null;
  tag: string | null;
  limit: number;
  page: number;
}

interface RawListQuery {
  q?: string;
  kategori?: string;
  tag?: string;
  limit?: string;
  page?: string;
}

function nonBlank(value: string | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

export async function validateListQuery(query: unknown): Promise<ListQuery> {
  const raw = await validateInput<RawListQuery>(listQuerySchema, query, 'The query');
  return {
    words: (raw.q ?? '').trim().split(/\s+/).filter((word) => word !== ''),
    kategori: nonBlank(raw.kategori),
    tag: nonBlank(raw.tag),
    limit: Math.min(raw.limit === undefined ? LIST_DEFAULT_LIMIT : Number(raw.limit), LIST_MAX_LIMIT),
    page: raw.page === undefined ? 1 : Number(raw.page),
  };
}

/** The other reads take no parameters; an unexpected one is an error rather than silently ignored. */
export async function validateNoParameters(query: unknown): Promise<void> {
  await validateInput<Record<string, never>>(noParametersSchema, query, 'The query');
}
