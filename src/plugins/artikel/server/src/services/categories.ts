import type { Core } from '@strapi/strapi';
import { CATEGORY_UID } from '../constants';
import { slugFromTitle } from '../utils/slugs';

const categories = ({ strapi }: { strapi: Core.Strapi }) => ({
  /**
   * The category named (by name or slug, in any case), created when there is none. Two concurrent
   * calls for a new name create one: the database's unique indexes refuse the second insert, which
   * then finds the first.
   */
  async findOrCreate(requested: string): Promise<{ documentId: string }> {
    const name = requested.trim();
    const slug = slugFromTitle(name);
    const find = () =>
      strapi.documents(CATEGORY_UID).findFirst({
        fields: ['name', 'slug'],
        filters: { $or: [{ name: { $eqi: name } }, { slug: { $eqi: name } }, { slug: { $eq: slug } }] },
      });

    const existing = await find();
    if (existing) return existing;
    try {
      return await strapi.documents(CATEGORY_UID).create({ data: { name, slug } });
    } catch (error) {
      const winner = await find();
      if (winner) return winner;
      throw error;
    }
  },
});

export default categories;
