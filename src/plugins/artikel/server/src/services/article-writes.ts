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

/** Thrown inside a dry run's transaction to roll it back, carrying the article as it would have been stored. */
class DryRunOutcome extends Error {
  constructor(readonly article: FullArticle) {
    super('dry run: rolled back');
  }
}

const articleWrites = ({ strapi }: { strapi: Core.Strapi }) => {
  /**
   * Creates an article through the Document Service, so the admin's rules, hooks and webhooks
   * apply, with its category in the same transaction (a refused article leaves none), and reads it
   * back in that transaction. A dry run then rolls everything back: no row, no category, no index
   * entry, no webhook (Strapi emits them on commit), no notice to other instances.
   */
  const write = async (input: CreateArticleInput, dryRun: boolean): Promise<FullArticle> => {
    const { category: categoryName, status = 'published', ...fields } = input;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await inTransaction(strapi, async () => {
          const category = await getService(strapi, 'categories').findOrCreate(categoryName);
          const created = await strapi.documents(ARTICLE_UID).create({ data: { ...fields, category: category.documentId }, status });
          const article = await getService(strapi, 'article-reads').fullArticle(created.documentId, status);
          if (dryRun) throw new DryRunOutcome(article);
          return article;
        });
      } catch (error) {
        if (error instanceof DryRunOutcome) return error.article;
        if (error instanceof SlugTakenError) throw slugConflictError(error.slug);
        if (!isUniqueViolation(error, 'slug')) throw error;
        // A concurrent create took the slug between the check and the insert: an explicit one is
        // refused, a generated one is chosen again.
        if (!isBlank(fields.slug)) throw slugConflictError(normalizeSlug(fields.slug ?? ''));
        if (attempt >= MAX_SLUG_ATTEMPTS) throw error;
      }
    }
  };

  return {
    create: (input: CreateArticleInput) => write(input, false),
    /** Every check and default of create, and the article as it would be stored now; stores nothing. */
    dryRun: (input: CreateArticleInput) => write(input, true),
  };
};

export default articleWrites;
