import type { Core } from '@strapi/strapi';
import { ARTICLE_UID } from '../constants';
import { inTransaction } from '../repositories/transactions';
import type { FullArticle } from '../utils/article-records';
import { SlugTakenError, slugConflictError } from '../utils/conflict-error';
import { isBlank } from '../utils/blank';
import { isUniqueViolation } from '../utils/database-errors';
import { getService } from '../utils/get-service';
import { normalizeSlug } from '../utils/slugs';
import type { CreateArticleInput } from '../validation/create-article';

// Concurrent creates of one title race for the same generated slug; each retry picks the next free one.
const MAX_SLUG_ATTEMPTS = 25;

const articleWrites = ({ strapi }: { strapi: Core.Strapi }) => ({
  /**
   * Creates an article through the Document Service, so the admin's rules, hooks and webhooks
   * apply; its category is created in the same transaction, so a refused article leaves none.
   */
  async create(input: CreateArticleInput): Promise<FullArticle> {
    const { category: categoryName, status = 'published', ...fields } = input;

    for (let attempt = 1; ; attempt += 1) {
      try {
        const documentId = await inTransaction(strapi, async () => {
          const category = await getService(strapi, 'categories').findOrCreate(categoryName);
          const created = await strapi.documents(ARTICLE_UID).create({ data: { ...fields, category: category.documentId }, status });
          return created.documentId;
        });
        // Read after the commit: the reads use connections of their own.
        return await getService(strapi, 'article-reads').fullArticle(documentId, status);
      } catch (error) {
        if (error instanceof SlugTakenError) throw slugConflictError(error.slug);
        if (!isUniqueViolation(error, 'slug')) throw error;
        // A concurrent create took the slug between the check and the insert: an explicit one is
        // refused, a generated one is chosen again.
        if (!isBlank(fields.slug)) throw slugConflictError(normalizeSlug(fields.slug ?? ''));
        if (attempt >= MAX_SLUG_ATTEMPTS) throw error;
      }
    }
  },
});

export default articleWrites;
