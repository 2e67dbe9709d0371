import type { Core } from '@strapi/strapi';
import { ARTICLE_UID, CATEGORY_UID } from '../constants';
import { lockUntilCommit } from '../infrastructure/locks';
import { type SlugHolder, slugsOfBase } from '../repositories/slug-rows';
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
      if ((await taken(uid, slug, exceptDocumentId)).has(slug)) throw new SlugTakenError(slug, holder);
      return slug;
    },
  };
};

export default slugs;
