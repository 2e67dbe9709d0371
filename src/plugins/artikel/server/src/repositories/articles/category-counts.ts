import { TABLES } from '../../constants';
import { countsComplete } from '../../infrastructure/index-state';
import { articleCounts } from '../article-counts';
import type { PublishedRows } from './published-rows';

export interface CategoryCountRecord {
  name: string;
  slug: string;
  articleCount: number;
}

/** How many published articles each category holds. */
export const categoryCounts = ({ strapi, knex, sqlite }: PublishedRows) => ({
  /** Every category with its number of published articles, by name. */
  async categoryCounts(): Promise<CategoryCountRecord[]> {
    const categories = (await knex()(TABLES.categories).select('id', 'name', 'slug').orderByRaw('LOWER(name) ASC')) as Array<{
      id: number | string;
      name: string | null;
      slug: string | null;
    }>;
    // The counts the write pipeline keeps (see article-counts): a row per category.
    if (countsComplete(strapi)) {
      const kept = await articleCounts(strapi).perCategory();
      return categories.map((row) => ({ name: row.name ?? '', slug: row.slug ?? '', articleCount: kept.get(Number(row.id)) ?? 0 }));
    }
    // Until they are counted (see index-state): counted from the published rows' ids alone: the article rows themselves (with their text) are
    // never read. SQLite is told to start from the articles (CROSS JOIN fixes the order), so it reads
    // the published_at index instead of looking up every link's article row.
    const counted = (await knex()
      .select('l.category_id')
      .count({ article_count: '*' })
      .from(
        knex().raw(`?? AS a ${sqlite ? 'CROSS JOIN' : 'JOIN'} ?? AS l ON l.article_id = a.id`, [
          TABLES.articles,
          TABLES.articleCategoryLinks,
        ]),
      )
      .whereNotNull('a.published_at')
      .groupBy('l.category_id')) as Array<{ category_id: number | string; article_count: number | string }>;
    const counts = new Map(counted.map((row) => [Number(row.category_id), Number(row.article_count)]));
    return categories.map((row) => ({ name: row.name ?? '', slug: row.slug ?? '', articleCount: counts.get(Number(row.id)) ?? 0 }));
  },
});
