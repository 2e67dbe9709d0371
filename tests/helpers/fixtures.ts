import type { Core } from '@strapi/strapi';
import { eventually } from './eventually';

export const ARTICLE_UID = 'api::article.article';
export const CATEGORY_UID = 'api::category.category';

export interface ArticleInput {
  title: string;
  slug: string;
  content?: string;
  summary?: string;
  tags?: string;
  category?: string;
  author?: string;
  cover_image_url?: string;
  meta_title?: string;
  meta_description?: string;
  meta_keywords?: string;
  status?: 'published' | 'draft';
}

export async function createCategory(strapi: Core.Strapi, name: string, slug: string): Promise<string> {
  const category = await strapi.documents(CATEGORY_UID).create({ data: { name, slug } });
  return category.documentId;
}

/** Creates an article the way the admin's Content Manager does: through the Document Service. */
export async function createArticle(strapi: Core.Strapi, input: ArticleInput): Promise<string> {
  const { status = 'published', category, content = `A body for ${input.title}.`, ...fields } = input;
  const article = await strapi.documents(ARTICLE_UID).create({
    data: { ...fields, content, ...(category ? { category } : {}) },
    status,
  });
  return article.documentId;
}

/** Waits until every view counted so far is in the table: on SQLite views are written together, every ARTIKEL_VIEW_WRITE_MS. */
export async function viewsWritten(strapi: Core.Strapi): Promise<void> {
  const views = strapi.plugin('artikel').service('article-views') as { unwrittenCount: () => number };
  const unwritten = await eventually(
    () => views.unwrittenCount(),
    (count) => count === 0,
    { withinMs: 15_000, everyMs: 10 },
  );
  if (unwritten > 0) throw new Error(`views of ${unwritten} articles were still not written after 15 s`);
}

/** An article's view count as stored in the table, once the views counted so far are written. */
export async function storedViews(strapi: Core.Strapi, documentId: string): Promise<number> {
  await viewsWritten(strapi);
  const row = (await strapi.db.connection('artikel_view_counts').where({ article_document_id: documentId }).first()) as
    { views: number } | undefined;
  return row?.views ?? 0;
}

/** Every article's views together, as stored, once the views counted so far are written. */
export async function totalStoredViews(strapi: Core.Strapi): Promise<number> {
  await viewsWritten(strapi);
  const row = (await strapi.db.connection('artikel_view_counts').sum({ total: 'views' }).first()) as
    { total: number | string | null } | undefined;
  return Number(row?.total ?? 0);
}

/** A file record as the Media Library stores it after an upload of a JPEG (no file on disk). */
export async function createMediaFile(strapi: Core.Strapi, name: string, width: number, height: number): Promise<number> {
  const file = await strapi.db.query('plugin::upload.file').create({
    data: {
      name,
      hash: name.replace(/\W/g, '_'),
      ext: '.jpg',
      mime: 'image/jpeg',
      size: 12.5,
      url: `/uploads/${name}`,
      provider: 'local',
      width,
      height,
      alternativeText: `Alt of ${name}`,
      caption: `Caption of ${name}`,
    },
  });
  return file.id as number;
}
