import { yup } from '@strapi/utils';
import { MAX_TAG_LENGTH, MAX_TAGS, parseTags } from '../utils/tags';
import { validateInput } from './validate';

/** The limits of the contract, in characters. */
export const FIELD_LIMITS = {
  title: 255,
  slug: 191,
  category: 100,
  author: 255,
  meta_title: 300,
  meta_description: 500,
  meta_keywords: 500,
  summary: 1000,
  cover_image_url: 2048,
} as const;

const text = (field: keyof typeof FIELD_LIMITS) =>
  yup.string().max(FIELD_LIMITS[field], `${field} must be at most ${FIELD_LIMITS[field]} characters`);

const requiredText = (schema: yup.StringSchema, field: string) =>
  schema.required(`${field} is required`).test('not-blank', `${field} must not be blank`, (value) => value === undefined || value.trim() !== '');

function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '';
  } catch {
    return false;
  }
}

const createArticleSchema = yup.object({
  title: requiredText(text('title'), 'title'),
  category: requiredText(text('category'), 'category'),
  content: requiredText(yup.string(), 'content'),
  summary: text('summary'),
  slug: text('slug'),
  tags: yup
    .string()
    .test('tag-count', `tags may hold at most ${MAX_TAGS} tags`, (value) => parseTags(value).length <= MAX_TAGS)
    .test('tag-length', `each tag must be at most ${MAX_TAG_LENGTH} characters`, (value) =>
      parseTags(value).every((tag) => tag.length <= MAX_TAG_LENGTH),
    ),
  cover_image_url: text('cover_image_url').test(
    'https-url',
    'cover_image_url must be an absolute https URL',
    (value) => value === undefined || value.trim() === '' || isHttpsUrl(value.trim()),
  ),
  author: text('author'),
  status: yup.string().oneOf(['published', 'draft'], 'status must be "published" or "draft"'),
  meta_title: text('meta_title'),
  meta_description: text('meta_description'),
  meta_keywords: text('meta_keywords'),
});

export interface CreateArticleInput {
  title: string;
  category: string;
  content: string;
  summary?: string;
  slug?: string;
  tags?: string;
  cover_image_url?: string;
  author?: string;
  status?: 'published' | 'draft';
  meta_title?: string;
  meta_description?: string;
  meta_keywords?: string;
}

export async function validateCreateArticle(body: unknown): Promise<CreateArticleInput> {
  return validateInput<CreateArticleInput>(createArticleSchema, body, 'The request body');
}
