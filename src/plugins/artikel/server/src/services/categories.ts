import type { Core } from '@strapi/strapi';
import { CATEGORY_UID } from '../constants';
import { categoryNamed } from '../repositories/categories';
import { lockUntilCommit } from '../infrastructure/locks';
import { isBlank } from '../utils/blank';
import { getService } from '../infrastructure/get-service';
import { slugFromTitle } from '../utils/slug-text';
import { validateCategoryFields } from '../validation/field-rules';

type CategoryData = Record<string, unknown>;

const categories = ({ strapi }: { strapi: Core.Strapi }) => ({
  /**
   * The category named (by name or slug, in any case), created when there is none. Runs in the
   * caller's transaction, so a category is only created together with the article that names it.
   */
  async findOrCreate(requested: string): Promise<{ documentId: string }> {
    const name = requested.trim();
    const slug = slugFromTitle(name);
    // Concurrent posts naming one new category take turns, so the later ones find it.
    await lockUntilCommit(strapi, `category:${slug}`);
    const existing = await categoryNamed(strapi, name, slug);
    return existing !== null ? { documentId: existing } : strapi.documents(CATEGORY_UID).create({ data: { name, slug } });
  },

  /**
   * Run by the document middleware before each category create and update, whichever way: a
   * category always has a unique slug, from its name when none is given; one given is normalized.
   */
  async apply(action: 'create' | 'update', params: { documentId?: string; data?: CategoryData }): Promise<void> {
    const data = params.data;
    if (!data) return;
    await validateCategoryFields(data);
    const stored =
      action === 'update' && params.documentId
        ? ((await strapi.documents(CATEGORY_UID).findOne({ documentId: params.documentId })) as CategoryData | null)
        : null;
    const name = String(('name' in data ? data.name : stored?.name) ?? '');
    const slugs = getService(strapi, 'slugs');
    if (isBlank('slug' in data ? data.slug : stored?.slug)) {
      data.slug = await slugs.free(CATEGORY_UID, slugFromTitle(name), params.documentId);
    } else if (typeof data.slug === 'string' && data.slug !== stored?.slug) {
      data.slug = await slugs.claim(CATEGORY_UID, data.slug, params.documentId);
    }
  },

  /** Gives every category stored without a slug (created in the admin before slugs were generated) one. */
  async repairMissingSlugs(): Promise<number> {
    const missing = await strapi.documents(CATEGORY_UID).findMany({
      fields: ['name'],
      filters: { $or: [{ slug: { $null: true } }, { slug: { $eq: '' } }] },
    });
    for (const category of missing) {
      await strapi.documents(CATEGORY_UID).update({ documentId: category.documentId, data: { slug: '' } });
    }
    return missing.length;
  },
});

export default categories;
