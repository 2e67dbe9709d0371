import { yup } from '@strapi/utils';
import { isBlank } from '../utils/blank';
import { ARTICLE_FIELD_RULES, text } from './field-rules';
import { type InferInput, textValue, validateInput } from './validate';
import { STATUS_MESSAGE, WRITE_STATUSES, type WriteStatus, checkSchedulePairing, publishAtRule } from './schedule';

const requiredText = (schema: yup.StringSchema, field: string) =>
  schema
    .required(`${field} is required`)
    .test('not-blank', `${field} must not be blank`, (value) => value === undefined || !isBlank(value));

/**
 * POST's body: the article's field rules, the required fields, a category name and a status;
 * nothing else. Listed in the specification's order, which is the order errors are reported in.
 */
export const createArticleSchema = yup.object({
  title: requiredText(ARTICLE_FIELD_RULES.title, 'title'),
  category: requiredText(text('category'), 'category'),
  content: requiredText(ARTICLE_FIELD_RULES.content, 'content'),
  summary: ARTICLE_FIELD_RULES.summary,
  slug: ARTICLE_FIELD_RULES.slug,
  tags: ARTICLE_FIELD_RULES.tags,
  cover_image_url: ARTICLE_FIELD_RULES.cover_image_url,
  author: ARTICLE_FIELD_RULES.author,
  // yup 0.32's oneOf keeps the schema's type (string); the values it admits are the field's type.
  status: textValue().oneOf([...WRITE_STATUSES], STATUS_MESSAGE) as yup.StringSchema<WriteStatus | undefined>,
  publish_at: publishAtRule(),
  meta_title: ARTICLE_FIELD_RULES.meta_title,
  meta_description: ARTICLE_FIELD_RULES.meta_description,
  meta_keywords: ARTICLE_FIELD_RULES.meta_keywords,
});

/** POST's body as the schema admits it: the type follows the schema, so the two cannot drift apart. */
export type CreateArticleInput = InferInput<typeof createArticleSchema>;

export async function validateCreateArticle(body: unknown): Promise<CreateArticleInput> {
  const input = await validateInput<CreateArticleInput>(createArticleSchema, body, 'body');
  checkSchedulePairing(input, { aloneMoves: false });
  return input;
}
