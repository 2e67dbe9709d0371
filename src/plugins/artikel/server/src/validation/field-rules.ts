import { yup } from '@strapi/utils';
import { RESERVED_SLUGS, slugProblem } from '../utils/slug-text';
import { isBlank } from '../utils/blank';
import { FIELD_LIMITS, MAX_TAG_LENGTH, MAX_TAGS } from '../utils/field-limits';
import { parseTags } from '../utils/tags';
import { textValue, validatePresentFields } from './validate';

export const text = (field: keyof typeof FIELD_LIMITS) =>
  textValue().max(FIELD_LIMITS[field], `${field} must be at most ${FIELD_LIMITS[field]} characters`);

function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * The rules of the article's text fields, shared by POST and the Content Manager (through the
 * document middleware). A missing or null value passes here: whether a field is required is
 * decided by each path (POST requires title, category and content; the admin on publish).
 */
export const ARTICLE_FIELD_RULES = {
  title: text('title'),
  slug: text('slug').test(
    'usable-slug',
    ({ value }: { value: string }) => slugProblem(value, RESERVED_SLUGS),
    (value) => isBlank(value) || slugProblem(value ?? '', RESERVED_SLUGS) === null,
  ),
  summary: text('summary'),
  content: textValue(),
  author: text('author'),
  meta_title: text('meta_title'),
  meta_description: text('meta_description'),
  meta_keywords: text('meta_keywords'),
  tags: yup
    .string()
    .typeError('tags must be one text of comma-separated tags, such as "harbour, golden hour" (not a list)')
    .test('tag-count', `tags may hold at most ${MAX_TAGS} tags`, (value) => parseTags(value).length <= MAX_TAGS)
    .test('tag-length', `each tag must be at most ${MAX_TAG_LENGTH} characters`, (value) =>
      parseTags(value).every((tag) => tag.length <= MAX_TAG_LENGTH),
    ),
  cover_image_url: text('cover_image_url').test(
    'https-url',
    'cover_image_url must be an absolute https URL',
    (value) => isBlank(value) || isHttpsUrl((value ?? '').trim()),
  ),
};

/** Checks the text fields an article write carries; see validatePresentFields. */
export async function validateArticleFields(data: Record<string, unknown>): Promise<void> {
  await validatePresentFields(ARTICLE_FIELD_RULES, data);
}

/** The rules of a category's fields, for every way a category is written. */
const CATEGORY_FIELD_RULES = {
  name: textValue().max(FIELD_LIMITS.category, `name must be at most ${FIELD_LIMITS.category} characters`),
  slug: text('slug'),
};

export async function validateCategoryFields(data: Record<string, unknown>): Promise<void> {
  await validatePresentFields(CATEGORY_FIELD_RULES, data);
}
