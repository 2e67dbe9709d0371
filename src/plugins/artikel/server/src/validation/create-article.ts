import { yup } from '@strapi/utils';
import { ARTICLE_FIELD_RULES, text } from './field-rules';
import { textValue, validateInput } from './validate';

const requiredText = (schema: yup.StringSchema, field: string) =>
  schema
    .required(`${field} is required`)
    .test('not-blank', `${field} must not be blank`, (value) => value === undefined || value.trim() !== '');

/**
 * POST's body: the article's field rules, the required fields, a category name and a status;
 * nothing else. Listed in the specification's order, which is the order errors are reported in.
 */
const createArticleSchema = yup.object({
  title: requiredText(ARTICLE_FIELD_RULES.title, 'title'),
  category: requiredText(text('category'), 'category'),
  content: requiredText(ARTICLE_FIELD_RULES.content, 'content'),
  summary: ARTICLE_FIELD_RULES.summary,
  slug: ARTICLE_FIELD_RULES.slug,
  tags: ARTICLE_FIELD_RULES.tags,
  cover_image_url: ARTICLE_FIELD_RULES.cover_image_url,
  author: ARTICLE_FIELD_RULES.author,
  status: textValue().oneOf(['published', 'draft'], 'status must be "published" or "draft"'),
  meta_title: ARTICLE_FIELD_RULES.meta_title,
  meta_description: ARTICLE_FIELD_RULES.meta_description,
  meta_keywords: ARTICLE_FIELD_RULES.meta_keywords,
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
