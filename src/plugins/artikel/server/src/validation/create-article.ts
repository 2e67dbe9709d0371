import { yup } from '@strapi/utils';
import { ARTICLE_FIELD_RULES, text } from './field-rules';
import { validateInput } from './validate';

const requiredText = (schema: yup.StringSchema, field: string) =>
  schema.required(`${field} is required`).test('not-blank', `${field} must not be blank`, (value) => value === undefined || value.trim() !== '');

/** POST's body: the article's field rules, the required fields, a category name and a status; nothing else. */
const createArticleSchema = yup.object({
  ...ARTICLE_FIELD_RULES,
  title: requiredText(ARTICLE_FIELD_RULES.title, 'title'),
  category: requiredText(text('category'), 'category'),
  content: requiredText(ARTICLE_FIELD_RULES.content, 'content'),
  status: yup.string().oneOf(['published', 'draft'], 'status must be "published" or "draft"'),
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
