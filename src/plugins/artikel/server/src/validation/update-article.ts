import { yup } from '@strapi/utils';
import { isBlank } from '../utils/blank';
import { ARTICLE_FIELD_RULES, text } from './field-rules';
import { type InferInput, fieldError, validateInput, validationError, textValue } from './validate';
import { STATUS_MESSAGE, WRITE_STATUSES, type WriteStatus, checkSchedulePairing, publishAtRule } from './schedule';

const notBlank = (schema: yup.StringSchema, field: string) =>
  schema.test('not-blank', `${field} must not be blank (it is required)`, (value) => value === undefined || !isBlank(value));

/**
 * PATCH's body: any of POST's fields, with POST's rules, plus `publish_at`. A required field
 * (title, category, content) may be changed but not cleared; an optional one sent as "" is
 * cleared, and gets its default again where it has one.
 */
export const updateArticleSchema = yup.object({
  title: notBlank(ARTICLE_FIELD_RULES.title, 'title'),
  category: notBlank(text('category'), 'category'),
  content: notBlank(ARTICLE_FIELD_RULES.content, 'content'),
  summary: ARTICLE_FIELD_RULES.summary,
  // A slug cannot be cleared: an article's address is never empty (send a new one to move it).
  slug: notBlank(ARTICLE_FIELD_RULES.slug, 'slug'),
  tags: ARTICLE_FIELD_RULES.tags,
  cover_image_url: ARTICLE_FIELD_RULES.cover_image_url,
  author: ARTICLE_FIELD_RULES.author,
  status: textValue().oneOf([...WRITE_STATUSES], STATUS_MESSAGE) as yup.StringSchema<WriteStatus | undefined>,
  publish_at: publishAtRule(),
  meta_title: ARTICLE_FIELD_RULES.meta_title,
  meta_description: ARTICLE_FIELD_RULES.meta_description,
  meta_keywords: ARTICLE_FIELD_RULES.meta_keywords,
});

export type UpdateArticleInput = InferInput<typeof updateArticleSchema>;

/** PATCH's body, checked alone; whether it changes anything is decided against the stored article. */
export async function validateUpdateArticle(body: unknown): Promise<UpdateArticleInput> {
  const input = await validateInput<UpdateArticleInput>(updateArticleSchema, body, 'body');
  if (Object.keys(input).length === 0) {
    throw validationError([fieldError(null, 'The request body changes nothing: send at least one field to change')]);
  }
  checkSchedulePairing(input, { aloneMoves: true });
  return input;
}
