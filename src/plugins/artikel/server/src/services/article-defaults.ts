import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { ARTICLE_UID, PLUGIN_ID } from '../constants';
import { isBlank } from '../utils/blank';
import { slugConflictError } from '../utils/conflict-error';
import { sanitizeStoredContent, summarize, truncateAtWord } from '../utils/content';
import { RESERVED_SLUGS, normalizeSlug, slugFromTitle, withSuffix } from '../utils/slugs';
import { formatTags, parseTags } from '../utils/tags';

/** The Article fields the defaults read or fill, as the Document Service receives them. */
export interface ArticleData {
  title?: string | null;
  slug?: string | null;
  summary?: string | null;
  content?: string | null;
  tags?: string | null;
  author?: string | null;
  meta_title?: string | null;
  meta_description?: string | null;
  [field: string]: unknown;
}

type DefaultedField = 'summary' | 'author' | 'meta_title' | 'meta_description';

const META_DESCRIPTION_LIMIT = 500;

function slugError(message: string): errors.ValidationError {
  return new errors.ValidationError(message, { errors: [{ path: ['slug'], message, name: 'ValidationError' }] });
}

/**
 * The rules every article gets, whichever way it is written (this plugin's POST, the admin's
 * Content Manager, a script): run by the document middleware in register.ts before each create and
 * update, so they are written once.
 */
const articleDefaults = ({ strapi }: { strapi: Core.Strapi }) => {
  /** Slugs of other articles' draft rows (every article has exactly one) equal to base or base-N. */
  const takenSlugs = async (base: string, exceptDocumentId?: string): Promise<Set<string>> => {
    const drafts = await strapi.documents(ARTICLE_UID).findMany({
      status: 'draft',
      fields: ['slug'],
      filters: {
        $or: [{ slug: { $eq: base } }, { slug: { $startsWith: `${base}-` } }],
        ...(exceptDocumentId ? { documentId: { $ne: exceptDocumentId } } : {}),
      },
    });
    return new Set(drafts.map((draft) => draft.slug ?? ''));
  };

  const isFree = (slug: string, taken: Set<string>) => !taken.has(slug) && !RESERVED_SLUGS.has(slug);

  return {
    /** The first of base, base-2, base-3, ... that no other article has and no route uses. */
    async freeSlug(base: string, exceptDocumentId?: string): Promise<string> {
      const taken = await takenSlugs(base, exceptDocumentId);
      for (let attempt = 1; ; attempt += 1) {
        const candidate = withSuffix(base, attempt);
        if (isFree(candidate, taken)) return candidate;
      }
    },

    /** A slug asked for explicitly: normalized, and refused when reserved or taken. */
    async claimSlug(requested: string, exceptDocumentId?: string): Promise<string> {
      const slug = normalizeSlug(requested);
      if (slug === '') throw slugError('slug must contain at least one letter or digit');
      if (RESERVED_SLUGS.has(slug)) throw slugError(`slug "${slug}" is reserved for a route`);
      const taken = await takenSlugs(slug, exceptDocumentId);
      if (taken.has(slug)) throw slugConflictError(slug);
      return slug;
    },

    async apply(action: 'create' | 'update', params: { documentId?: string; data?: ArticleData }): Promise<void> {
      const data = params.data;
      if (!data) return;
      const existing =
        action === 'update' && params.documentId
          ? ((await strapi.documents(ARTICLE_UID).findOne({ documentId: params.documentId, status: 'draft' })) as ArticleData | null)
          : null;
      const current = (field: keyof ArticleData): unknown => (field in data ? data[field] : existing?.[field]);

      if (typeof data.content === 'string') data.content = sanitizeStoredContent(data.content);
      if (typeof data.tags === 'string') data.tags = formatTags(parseTags(data.tags));

      // On create every blank field gets its default; on update only the fields the edit blanks.
      const needsDefault = (field: DefaultedField | 'slug') => (action === 'create' || field in data) && isBlank(data[field]);
      const title = String(current('title') ?? '');
      const fill = (field: DefaultedField, value: () => string) => {
        if (needsDefault(field)) data[field] = value();
      };
      fill('summary', () => summarize(String(current('content') ?? '')));
      fill('author', () => strapi.plugin(PLUGIN_ID).config('studioName') as string);
      fill('meta_title', () => title);
      fill('meta_description', () => truncateAtWord(String(current('summary') ?? ''), META_DESCRIPTION_LIMIT));

      if (needsDefault('slug')) {
        data.slug = await this.freeSlug(slugFromTitle(title), params.documentId);
      } else if (typeof data.slug === 'string' && (action === 'create' || data.slug !== existing?.slug)) {
        data.slug = await this.claimSlug(data.slug, params.documentId);
      }
    },
  };
};

export default articleDefaults;
