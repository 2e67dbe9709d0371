import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { SitemapIndexStream, SitemapStream, streamToPromise } from 'sitemap';
import { EVERY_ARTICLE, publishedArticles } from '../repositories/articles';
import { absoluteMediaUrl } from '../presenters/article-records';
import { blankToNull } from '../utils/blank';
import { getConfig, getService } from '../infrastructure/get-service';
import { articlePageUrl } from '../presenters/links';

/**
 * A file with no article page yet (nothing is published): the sitemap library refuses to end a
 * stream nothing was written to, so the empty urlset, with the namespaces a full file declares,
 * is written here. Crawlers read it as "no pages", not as an error.
 */
const EMPTY_URL_SET =
  '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"></urlset>';

/** The sitemap of the published articles: one file, or past the per-file limit an index of files. */
const sitemaps = ({ strapi }: { strapi: Core.Strapi }) => {
  const articles = publishedArticles(strapi);

  /** One file of up to `sitemapUrls` article pages, each with its last change and its cover and gallery photos (Google's image extension). */
  const urlSet = async (page: number, apiBase: string): Promise<string> => {
    const perFile = getConfig(strapi, 'sitemapUrls');
    const site = { articleUrlPattern: getConfig(strapi, 'siteArticleUrl'), apiBase };
    const mediaContext = { mediaBaseUrl: (strapi.config.get('server.url') as string | undefined) || apiBase };
    const stream = new SitemapStream({ xmlns: { image: true, news: false, video: false, xhtml: false } });
    const records = await articles.sitemapPage((page - 1) * perFile, perFile);
    if (records.length === 0) return EMPTY_URL_SET;
    const done = streamToPromise(stream);
    for (const record of records) {
      const cover =
        blankToNull(record.coverImageUrl) ?? (record.coverMediaUrl ? absoluteMediaUrl(record.coverMediaUrl, mediaContext) : null);
      const photos = [...(cover ? [cover] : []), ...record.galleryUrls.map((url) => absoluteMediaUrl(url, mediaContext))];
      stream.write({ url: articlePageUrl(record.slug, site), lastmod: record.updatedAt, img: photos.map((url) => ({ url })) });
    }
    stream.end();
    return (await done).toString('utf8');
  };

  /** How many files the sitemap has: at least one, empty when nothing is published. */
  const fileCount = async (): Promise<number> =>
    Math.max(1, Math.ceil((await articles.count(EVERY_ARTICLE)).total / getConfig(strapi, 'sitemapUrls')));

  /** The index of the files, each at /api/artikel/sitemap/{n}. */
  const index = async (files: number, apiBase: string): Promise<string> => {
    const stream = new SitemapIndexStream();
    const done = streamToPromise(stream);
    for (let page = 1; page <= files; page += 1) stream.write({ url: new URL(`/api/artikel/sitemap/${page}`, apiBase).toString() });
    stream.end();
    return (await done).toString('utf8');
  };

  return {
    /** /sitemap.xml: every article when they fit in one file, else the index of the files. */
    async root(apiBase: string): Promise<string> {
      return getService(strapi, 'read-cache').remember(`sitemap:root:${apiBase}`, async () => {
        const files = await fileCount();
        return files === 1 ? urlSet(1, apiBase) : index(files, apiBase);
      });
    },

    /** /sitemap/{n}: the n-th file of the index; one past the last is a 404. */
    async file(page: number, apiBase: string): Promise<string> {
      return getService(strapi, 'read-cache').remember(`sitemap:${page}:${apiBase}`, async () => {
        const files = await fileCount();
        if (page > files) throw new errors.NotFoundError(`The sitemap has ${files} files`);
        return urlSet(page, apiBase);
      });
    },
  };
};

export default sitemaps;
