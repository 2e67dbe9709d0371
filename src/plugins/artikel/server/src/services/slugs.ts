import type { Core } from '@strapi/strapi';
import { ARTICLE_UID, CATEGORY_UID } from '../constants';
import { lockUntilCommit } from '../infrastructure/locks';
import { errors } from '@strapi/utils';
import { oldSlugs } from '../repositories/old-slugs';
import { trash } from '../repositories/trash';
import { articleWithSlug, currentSlugOf, type SlugHolder, slugsOfBase } from '../repositories/slug-rows';
import { quotedText } from '../utils/quoted-text';
import { SlugTakenError } from '../domain/conflict-error';
import { RESERVED_SLUGS, normalizeSlug, slugProblem, withSuffix } from '../utils/slug-text';
import { fieldError, validationError } from '../validation/validate';

type SluggedType = typeof ARTICLE_UID | typeof CATEGORY_UID;

/** What each type's slugs must stay clear of, and what a taken slug's message calls its holder. */
const SLUG_RULES: Record<SluggedType, { reserved: ReadonlySet<string>; holder: SlugHolder }> = {
  // Article slugs are paths under /api/artikel, next to the fixed routes.
  [ARTICLE_UID]: { reserved: RESERVED_SLUGS, holder: 'article' },
  [CATEGORY_UID]: { reserved: new Set(), holder: 'category' },
};

/**
 * Unique slugs of articles and categories, checked in the caller's transaction (the document
 * middleware runs inside the write's) under a lock on the slug, so concurrent writes of one title
 * take turns instead of racing; the unique indexes of plugin-tables.ts back them up.
 */
const slugs = ({ strapi }: { strapi: Core.Strapi }) => {
  /** Slugs of other documents equal to base or base-N. */
  const taken = async (uid: SluggedType, base: string, exceptDocumentId?: string): Promise<Set<string>> =>
    new Set(await slugsOfBase(strapi, SLUG_RULES[uid].holder, base, exceptDocumentId));

  return {
    /**
     * The article whose current slug this is, whatever its status: its document id. Else a 404;
     * for an old slug, one that names where the article is now (a write or an editor's tool sent
     * to an old slug is not followed: its client learns the current address).
     */
    async articleAt(slug: string): Promise<string> {
      const documentId = await articleWithSlug(strapi, slug);
      if (documentId !== null) return documentId;
      const movedFrom = await oldSlugs(strapi).documentOf(slug);
      const current = movedFrom === null ? null : await currentSlugOf(strapi, movedFrom);
      if (current !== null)
        throw new errors.NotFoundError(
          `The article moved from ${quotedText(slug)} to "${current}": send the request to /api/artikel/${current}`,
        );
      throw new errors.NotFoundError(`No article has the slug ${quotedText(slug)}`);
    },

    /** The first of base, base-2, base-3, ... that no other document of the type has and no route uses. */
    async free(uid: SluggedType, base: string, exceptDocumentId?: string): Promise<string> {
      const { reserved } = SLUG_RULES[uid];
      await lockUntilCommit(strapi, `slug:${uid}:${base}`);
      const used = await taken(uid, base, exceptDocumentId);
      for (let attempt = 1; ; attempt += 1) {
        const candidate = withSuffix(base, attempt);
        if (!used.has(candidate) && !reserved.has(candidate)) return candidate;
      }
    },

    /** A slug asked for explicitly: normalized, and refused when it is empty, reserved or taken. */
    async claim(uid: SluggedType, requested: string, exceptDocumentId?: string): Promise<string> {
      const { reserved, holder } = SLUG_RULES[uid];
      const problem = slugProblem(requested, reserved);
      if (problem !== null) throw validationError([fieldError('slug', problem)]);
      const slug = normalizeSlug(requested);
      await lockUntilCommit(strapi, `slug:${uid}:${slug}`);
      if ((await taken(uid, slug, exceptDocumentId)).has(slug)) {
        const trashed = uid === ARTICLE_UID ? await trash(strapi).holderOf(slug) : null;
        throw new SlugTakenError(slug, holder, trashed);
      }
      return slug;
    },
  };
};

export default slugs;
