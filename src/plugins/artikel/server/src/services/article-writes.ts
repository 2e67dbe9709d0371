import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import createError from 'http-errors';
import { ARTICLE_UID } from '../constants';
import { lockUntilCommit } from '../infrastructure/locks';
import { inTransaction } from '../infrastructure/transactions';
import type { FullArticle } from '../presenters/article-records';
import { articleTag } from '../presenters/representation-tag';
import { SlugTakenError, slugConflictError } from '../domain/conflict-error';
import { articleVersion } from '../repositories/article-versions';
import { articleEntity } from '../repositories/article-details';
import { isBlank } from '../utils/blank';
import { type IfMatch, ifMatchAdmits } from '../utils/entity-tags';
import { isUniqueViolation } from '../infrastructure/database-errors';
import { getService } from '../infrastructure/get-service';
import { normalizeSlug, slugFromTitle } from '../utils/slug-text';
import { formatTags, parseTags } from '../utils/tags';
import type { CreateArticleInput } from '../validation/create-article';
import type { WriteStatus } from '../validation/schedule';
import type { UpdateArticleInput } from '../validation/update-article';
import { fieldError, validationError } from '../validation/validate';
import type { KeyedRequest, PostAnswer } from './idempotency';
import { quotedText } from '../utils/quoted-text';
import { withWriteOrigin } from '../infrastructure/write-origin';
import { ARTICLE_TEXT_FIELDS, type ArticleTextField, sameText } from '../domain/article-revisions';
import type { OwnedArticle } from '../domain/article-owner';
import { ownedArticleOf } from '../repositories/article-owners';

// Concurrent creates of one title race for the same generated slug; each retry picks the next free one.
const MAX_SLUG_ATTEMPTS = 25;

/** Thrown inside a dry run's transaction to roll it back, carrying the answer it would have given. */
class DryRunOutcome extends Error {
  constructor(readonly answer: WriteAnswer) {
    super('dry run: rolled back');
  }
}

/** A write's answer; replayed when it is the stored answer to an earlier request with the same Idempotency-Key. */
export interface PostOutcome extends PostAnswer {
  replayed: boolean;
  /** The article's tag after the write (none on a replay: the article may have changed since). */
  etag?: string;
}

type WriteAnswer = PostAnswer & { etag?: string };

interface WriteMode {
  dryRun: boolean;
  keyed: KeyedRequest | null;
}

export interface UpdateMode extends WriteMode {
  ifMatch: IfMatch | null;
  /**
   * Decides, on the article found and locked, whether the write may go on (throws when not): the
   * command's authorization, given the article's status before and after the write.
   */
  authorize?: (article: OwnedArticle, change: { current: WriteStatus; target: WriteStatus }) => void;
}

/** A create's own options: who will be the article's creator (an admin user; none for tokens and scripts). */
export interface CreateMode extends WriteMode {
  creatorId: number | string | null;
}

interface StoredArticle {
  documentId: string;
  slug?: string | null;
  publish_at?: string | Date | null;
  category?: { name?: string | null; slug?: string | null } | null;
  [field: string]: unknown;
}

const articleAnswer = (article: FullArticle, status: number): PostAnswer => ({
  status,
  location: status === 201 ? `/api/artikel/${encodeURIComponent(article.slug)}` : null,
  body: { data: article },
});

function preconditionFailed(): Error {
  const message = 'The article has changed since the version your If-Match names: read it again (its ETag) and retry';
  return createError(412, message, { details: {} });
}

/** The same instant, whatever its spelling. */
const sameInstant = (a: unknown, b: unknown): boolean => {
  const time = (value: unknown) => (value === null || value === undefined || value === '' ? null : new Date(value as string).getTime());
  return time(a) === time(b);
};

/** Whether sending `value` for `field` would change what is stored. */
function changes(field: ArticleTextField, value: string, stored: StoredArticle): boolean {
  const current = typeof stored[field] === 'string' ? (stored[field] as string) : '';
  if (field === 'slug') return normalizeSlug(value) !== current;
  if (field === 'tags') return formatTags(parseTags(value)) !== formatTags(parseTags(current));
  return value !== current;
}

/** Whether `requested` names the article's current category (by name or slug, in any case). */
function isCurrentCategory(requested: string, stored: StoredArticle): boolean {
  const name = requested.trim().toLowerCase();
  const { category } = stored;
  if (!category) return false;
  return (
    name === (category.name ?? '').toLowerCase() ||
    name === (category.slug ?? '').toLowerCase() ||
    slugFromTitle(requested.trim()) === category.slug
  );
}

const articleWrites = ({ strapi }: { strapi: Core.Strapi }) => {
  const documents = () => strapi.documents(ARTICLE_UID);
  const reads = () => getService(strapi, 'article-reads');

  /** The answer with the article as it is now in this transaction, and its tag. */
  const answerOf = async (documentId: string, live: boolean, status: number): Promise<WriteAnswer> => {
    const article = await reads().fullArticle(documentId, live ? 'published' : 'draft');
    const answer = articleAnswer(article, status);
    const version = await articleVersion(strapi, documentId);
    return version === null ? answer : { ...answer, etag: articleTag(version, JSON.stringify(answer.body)) };
  };

  /**
   * Runs a write in one transaction, with its Idempotency-Key held and its answer stored in it; a
   * dry run then rolls everything back: no row, no category, no index entry, no webhook (Strapi
   * emits them on commit), no notice to other instances. A slug that a concurrent write took
   * between the check and the insert is retried (a generated one) or refused (an explicit one).
   */
  const inWrite = async (mode: WriteMode, explicitSlug: string | undefined, work: () => Promise<WriteAnswer>): Promise<PostOutcome> => {
    const idempotency = getService(strapi, 'idempotency');
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await withWriteOrigin({ command: true }, () =>
          inTransaction(strapi, async () => {
            const stored = mode.keyed === null ? null : await idempotency.hold(mode.keyed);
            if (stored !== null) return { ...stored, replayed: true };
            const answer = await work();
            if (mode.dryRun) throw new DryRunOutcome(answer);
            const { etag, ...kept } = answer;
            if (mode.keyed !== null) await idempotency.remember(mode.keyed, kept);
            return { ...answer, replayed: false, ...(etag === undefined ? {} : { etag }) };
          }),
        );
      } catch (error) {
        if (error instanceof DryRunOutcome) {
          const body = { ...(error.answer.body as object), meta: { dry_run: true } };
          return { status: 200, location: null, body, replayed: false };
        }
        if (error instanceof SlugTakenError) throw slugConflictError(error.slug, error.trashedDocumentId);
        if (!isUniqueViolation(error, 'slug')) throw error;
        if (!isBlank(explicitSlug)) throw slugConflictError(normalizeSlug(explicitSlug ?? ''));
        if (attempt >= MAX_SLUG_ATTEMPTS) throw error;
      }
    }
  };

  /**
   * The article at this slug, whatever its status, locked until the write commits (two PATCHes of
   * one article take turns, so If-Match is checked against what the other one committed), with its
   * published version and its status. Authorization comes first, on the article itself, before
   * anything about its version is told. An old slug is not followed: a client that sends a write
   * to it learns where the article is now.
   */
  const locate = async (slug: string, ifMatch: IfMatch | null, authorize?: (article: OwnedArticle, current: WriteStatus) => void) => {
    const documentId = await getService(strapi, 'slugs').articleAt(slug);
    await lockUntilCommit(strapi, `article:${documentId}`);
    const stored = (await articleEntity(strapi, documentId, 'draft', 'write')) as StoredArticle | null;
    if (!stored) throw new errors.NotFoundError(`No article has the slug ${quotedText(slug)}`);
    const published = await documents().findOne({ documentId, status: 'published', fields: ['publishedAt'] });
    const current: WriteStatus = published ? 'published' : stored.publish_at ? 'scheduled' : 'draft';
    authorize?.(ownedArticleOf(documentId, stored), current);
    if (ifMatch !== null) {
      const version = await articleVersion(strapi, documentId);
      if (version === null || !ifMatchAdmits(ifMatch, version)) throw preconditionFailed();
    }
    return { stored, published, current };
  };

  /**
   * Writes the new fields and puts the article in its target status: off the public reads first
   * (unpublishing ends a schedule), then the fields, then live again. A live article that is only
   * edited keeps its publication time (and its place in the lists).
   */
  const applyChange = async (
    documentId: string,
    data: Record<string, unknown>,
    published: { publishedAt?: unknown } | null,
    target: WriteStatus,
  ): Promise<void> => {
    if (published && target !== 'published') await documents().unpublish({ documentId });
    if (Object.keys(data).length > 0) await documents().update({ documentId, data });
    if (target === 'published' && published?.publishedAt) {
      await getService(strapi, 'publication').publishAt(documentId, new Date(published.publishedAt as string));
    } else if (target === 'published') await documents().publish({ documentId });
  };

  const create = (input: CreateArticleInput, mode: CreateMode): Promise<PostOutcome> =>
    inWrite(mode, input.slug, async () => {
      const { category: categoryName, status = 'published', publish_at: publishAt, ...fields } = input;
      const category = await getService(strapi, 'categories').findOrCreate(categoryName);
      const live = status === 'published';
      // An editor's or agent's article is theirs, as one created in the Content Manager: the
      // conditions of their role ("is creator") then let them keep working on it.
      const creator = mode.creatorId === null ? {} : { createdBy: mode.creatorId, updatedBy: mode.creatorId };
      const data = { ...fields, ...creator, category: category.documentId, ...(status === 'scheduled' ? { publish_at: publishAt } : {}) };
      const created = await documents().create({ data, status: live ? 'published' : 'draft' });
      return answerOf(created.documentId, live, 201);
    });

  const update = (slug: string, input: UpdateArticleInput, mode: UpdateMode): Promise<PostOutcome> =>
    inWrite(mode, input.slug, async () => {
      const { stored, published, current } = await locate(
        slug,
        mode.ifMatch,
        mode.authorize && ((article, current) => mode.authorize?.(article, { current, target: input.status ?? current })),
      );
      const { documentId } = stored;
      if (input.publish_at !== undefined && input.status === undefined && current !== 'scheduled') {
        throw validationError([fieldError('publish_at', `publish_at is taken only with status "scheduled" (the article is ${current})`)]);
      }
      const target: WriteStatus = input.status ?? current;

      const data: Record<string, unknown> = {};
      for (const field of ARTICLE_TEXT_FIELDS) {
        const value = input[field];
        // "" clears an optional field; the rules then give a defaulted one its default again.
        if (value !== undefined && changes(field, value, stored)) data[field] = value === '' ? null : value;
      }
      if (input.category !== undefined && !isCurrentCategory(input.category, stored)) {
        data.category = (await getService(strapi, 'categories').findOrCreate(input.category)).documentId;
      }
      if (target === 'scheduled' && input.publish_at !== undefined && !sameInstant(input.publish_at, stored.publish_at))
        data.publish_at = input.publish_at;
      if (target !== 'scheduled' && current === 'scheduled') data.publish_at = null;
      if (Object.keys(data).length === 0 && target === current) {
        throw validationError([fieldError(null, 'The request body changes nothing: every field sent already has that value')]);
      }

      await applyChange(documentId, data, published, target);
      return answerOf(documentId, target === 'published', 200);
    });

  /**
   * Gives the article the text of one of its revisions (the fields, category and photos; not its
   * slug, which stays where readers find the article, nor its status or schedule): a published
   * article stays published, keeping its publication time. The restore is itself a new revision.
   */
  const restore = (slug: string, number: number, mode: UpdateMode): Promise<PostOutcome> =>
    withWriteOrigin({ restoredFrom: number }, () =>
      inWrite(mode, undefined, async () => {
        const { stored, published, current } = await locate(
          slug,
          mode.ifMatch,
          mode.authorize && ((article, current) => mode.authorize?.(article, { current, target: current })),
        );
        const { documentId } = stored;
        const revisions = getService(strapi, 'revisions');
        // One after the other: a transaction is one connection, which takes one query at a time.
        const wanted = await revisions.snapshot(documentId, number);
        const now = await revisions.current(documentId);
        if (wanted === null)
          throw new errors.NotFoundError(
            `The article has no revision ${number}: GET /api/artikel/${encodeURIComponent(stored.slug ?? slug)}/revisions lists those kept`,
          );
        if (now !== null && sameText(wanted, now))
          throw validationError([fieldError(null, `The article already has the text of revision ${number}: restoring it changes nothing`)]);
        const data = await revisions.writeDataOf(wanted, { slug: false });
        await applyChange(documentId, data, published, current);
        return answerOf(documentId, current === 'published', 200);
      }),
    );

  return {
    /** Creates the article (once per Idempotency-Key when keyed); a dry run checks everything and stores nothing. */
    create,
    /** Changes the article at this slug (PATCH): its fields, its status, its slug or its schedule. */
    update,
    /** Gives the article at this slug the text of one of its revisions. */
    restore,

    /** Deletes the article at this slug, every version of it, its views and its old slugs. */
    async remove(slug: string, ifMatch: IfMatch | null, authorize?: (article: OwnedArticle) => void): Promise<void> {
      await inTransaction(strapi, async () => {
        const { stored } = await locate(slug, ifMatch, authorize);
        await documents().delete({ documentId: stored.documentId });
      });
    },
  };
};

export default articleWrites;
