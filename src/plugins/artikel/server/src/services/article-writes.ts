import type { Core } from '@strapi/strapi';
import { ARTICLE_UID } from '../constants';
import type { FullArticle } from '../utils/article-records';
import { isBlank } from '../utils/blank';
import { normalizeSlug } from '../utils/slugs';
import { slugConflictError } from '../utils/conflict-error';
import { isUniqueViolation } from '../utils/database-errors';
import { getService } from '../utils/get-service';
import type { CreateArticleInput } from '../validation/create-article';

// Concurrent creates of one title race for the same generated slug; each retry picks the next free one.
const MAX_SLUG_ATTEMPTS = 25;

const articleWrites = ({ strapi }: { strapi: Core.Strapi }) => ({
  /** Creates an article through the Document Service, so the admin's defaults, hooks and webhooks apply. */
  async create(input: CreateArticleInput): Promise<FullArticle> {
    const { category: categoryName, status = 'published', ...fields } = input;
    const category = await getService(strapi, 'categories').findOrCreate(categoryName);

    for (let attempt = 1; ; attempt += 1) {
      try {
        const created = await strapi.documents(ARTICLE_UID).create({
          data: { ...fields, category: category.documentId },
          status,
        });
        return await getService(strapi, 'article-reads').fullArticle(created.documentId, status);
      } catch (error) {
        if (!isUniqueViolation(error, 'slug')) throw error;
        if (!isBlank(fields.slug)) {
          throw slugConflictError(normalizeSlug(fields.slug ?? ''));
        }
        if (attempt >= MAX_SLUG_ATTEMPTS) throw error;
      }
    }
  },
});

export default articleWrites;
