import { ARTICLE_UID, TABLES } from '../../constants';
import { limitRows } from '../../infrastructure/row-limits';
import { toIsoString } from '../../utils/dates';
import type { PublishedRows } from './published-rows';
import { COVER_JOINS } from './queries';

/** What a sitemap lists of an article: its page, its last change and its photos. */
export interface SitemapRecord {
  slug: string;
  updatedAt: string;
  coverImageUrl: string | null;
  coverMediaUrl: string | null;
  galleryUrls: string[];
}

// Articles whose galleries one query reads (their ids are one IN list).
const GALLERY_BATCH = 500;

/** The sitemap's pages of published articles. */
export const sitemapRows = ({ knex, publishedRows }: PublishedRows) => ({
  /** Published articles `offset` to `offset + limit` in a stable order (row id), with their photos. */
  async sitemapPage(offset: number, limit: number): Promise<SitemapRecord[]> {
    const rows = (await limitRows(
      publishedRows()
        .joinRaw(COVER_JOINS)
        .select('a.id', 'a.slug', 'a.updated_at', 'a.cover_image_url', 'f.url as cover_media_url')
        .orderBy('a.id'),
      limit,
      offset,
    )) as Array<{ id: number; slug: string | null; updated_at: unknown; cover_image_url: string | null; cover_media_url: string | null }>;
    const gallery = new Map<number, string[]>();
    for (let start = 0; start < rows.length; start += GALLERY_BATCH) {
      const ids = rows.slice(start, start + GALLERY_BATCH).map((row) => row.id);
      const images = (await knex()({ fr: TABLES.mediaLinks })
        .join({ f: TABLES.files }, 'f.id', 'fr.file_id')
        .where('fr.related_type', ARTICLE_UID)
        .where('fr.field', 'gallery')
        .whereIn('fr.related_id', ids)
        .select('fr.related_id', 'f.url')
        .orderBy([{ column: 'fr.related_id' }, { column: 'fr.order' }])) as Array<{ related_id: number; url: string }>;
      for (const image of images) gallery.set(Number(image.related_id), [...(gallery.get(Number(image.related_id)) ?? []), image.url]);
    }
    return rows.map((row) => ({
      slug: row.slug ?? '',
      updatedAt: toIsoString(row.updated_at) ?? '',
      coverImageUrl: row.cover_image_url,
      coverMediaUrl: row.cover_media_url,
      galleryUrls: gallery.get(Number(row.id)) ?? [],
    }));
  },
});
