import type { Core } from '@strapi/strapi';
import { getService } from '../infrastructure/get-service';
import { withSingleParameters } from '../presenters/links';
import { validateFeedQuery, validateNoParameters, validatePreviewPageQuery, validateSitemapFile } from '../validation/read-queries';
import { FEED_CONTENT_TYPES } from '../services/feeds';
import { apiBase, type Context } from './http';

/** What the public site, feed readers and crawlers read besides the articles: feeds, sitemaps, and a draft by its preview token. */
const publishingController = ({ strapi }: { strapi: Core.Strapi }) => ({
  /** RSS 2.0, Atom or JSON Feed of the newest articles, all or of one category (?kategori=slug). */
  async feed(ctx: Context) {
    const { format, category } = await validateFeedQuery(ctx.params.format, ctx.query);
    const base = apiBase(strapi, ctx);
    const selfUrl = withSingleParameters(new URL(`${ctx.path}${ctx.querystring ? `?${ctx.querystring}` : ''}`, base)).toString();
    const body = await getService(strapi, 'feeds').feed({ format, category, selfUrl, apiBase: base });
    ctx.set('Content-Type', FEED_CONTENT_TYPES[format]);
    ctx.body = body;
  },

  /** The sitemap of every published article with its photos, or past ARTIKEL_SITEMAP_URLS the index of its files. */
  async sitemap(ctx: Context) {
    await validateNoParameters(ctx.query);
    const body = await getService(strapi, 'sitemaps').root(apiBase(strapi, ctx));
    ctx.set('Content-Type', 'application/xml; charset=utf-8');
    ctx.body = body;
  },

  async sitemapFile(ctx: Context) {
    const page = await validateSitemapFile(ctx.params.page, ctx.query);
    const body = await getService(strapi, 'sitemaps').file(page, apiBase(strapi, ctx));
    ctx.set('Content-Type', 'application/xml; charset=utf-8');
    ctx.body = body;
  },

  async preview(ctx: Context) {
    await validateNoParameters(ctx.query);
    const draft = await getService(strapi, 'preview').draftFor(ctx.params.token);
    // A draft is for the one who holds the link: kept out of caches and search engines.
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Robots-Tag', 'noindex');
    ctx.body = { data: draft };
  },

  /** The service's own page of the article a preview token grants (see presenters/preview-page.ts). */
  async previewPage(ctx: Context) {
    const version = await validatePreviewPageQuery(ctx.query);
    const html = await getService(strapi, 'preview').pageFor(ctx.params.token, version);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Robots-Tag', 'noindex');
    // No script at all; photos from wherever the article's cover or content links them; framed only by the admin.
    ctx.set(
      'Content-Security-Policy',
      "default-src 'none'; img-src * data:; style-src 'unsafe-inline'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'",
    );
    ctx.set('Content-Type', 'text/html; charset=utf-8');
    ctx.body = html;
  },
});

export default publishingController;
