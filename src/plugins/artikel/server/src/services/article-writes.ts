import type { Core } from '@strapi/strapi';
import { ARTICLE_UID } from '../constants';
import { inTransaction } from '../infrastructure/transactions';
import type { FullArticle } from '../presenters/article-records';
import { SlugTakenError, slugConflictError } from '../domain/conflict-error';
import { isBlank } from '../utils/blank';
import { isUniqueViolation } from '../infrastructure/database-errors';
import { getService } from '../infrastructure/get-service';
import { normalizeSlug } from '../utils/slug-text';
import type { CreateArticleInput } from '../validation/create-article';
import type { KeyedRequest, PostAnswer } from './idempotency';

// Concurrent creates of one title race for the same generated slug; each retry picks the next free one.
const MAX_SLUG_ATTEMPTS = 25;

/** Thrown inside a dry run's transaction to roll it back, carrying the article as it would have been stored. */
class DryRunOutcome extends Error {
  constructor(readonly article: FullArticle) {
    super('dry run: rolled back');
  }
}

/** A POST's answer; replayed when it is the stored answer to an earlier request with the same Idempotency-Key. */
export interface PostOutcome extends PostAnswer {
  replayed: boolean;
}

const createdAnswer = (article: FullArticle): PostAnswer => ({
  status: 201,
  location: `/api/artikel/${encodeURIComponent(article.slug)}`,
  body: { data: article },
});

const articleWrites = ({ strapi }: { strapi: Core.Strapi }) => {
  /**
   * Creates an article through the Document Service, so the admin's rules, hooks and webhooks
   * apply, with its category in the same transaction (a refused article leaves none), and reads it
   * back in that transaction. A dry run then rolls everything back: no row, no category, no index
   * entry, no webhook (Strapi emits them on commit), no notice to other instances. A keyed request
   * holds its key and stores its answer in that transaction too.
   */
  const write = async (input: CreateArticleInput, mode: { dryRun: boolean; keyed: KeyedRequest | null }): Promise<PostOutcome> => {
    const { category: categoryName, status = 'published', ...fields } = input;
    const idempotency = getService(strapi, 'idempotency');
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await inTransaction(strapi, async () => {
          const stored = mode.keyed === null ? null : await idempotency.hold(mode.keyed);
          if (stored !== null) return { ...stored, replayed: true };
          const category = await getService(strapi, 'categories').findOrCreate(categoryName);
          const created = await strapi.documents(ARTICLE_UID).create({ data: { ...fields, category: category.documentId }, status });
          const article = await getService(strapi, 'article-reads').fullArticle(created.documentId, status);
          if (mode.dryRun) throw new DryRunOutcome(article);
          const answer = createdAnswer(article);
          if (mode.keyed !== null) await idempotency.remember(mode.keyed, answer);
          return { ...answer, replayed: false };
        });
      } catch (error) {
        if (error instanceof DryRunOutcome)
          return { status: 200, location: null, body: { data: error.article, meta: { dry_run: true } }, replayed: false };
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
    /** Creates the article, once per Idempotency-Key when the request carries one. */
    create: (input: CreateArticleInput, keyed: KeyedRequest | null) => write(input, { dryRun: false, keyed }),
    /** Every check and default of create, and the article as it would be stored now; stores nothing. */
    dryRun: (input: CreateArticleInput) => write(input, { dryRun: true, keyed: null }),
  };
};

export default articleWrites;
