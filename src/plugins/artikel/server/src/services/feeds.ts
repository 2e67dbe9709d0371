import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { Feed } from 'feed';
import { FEED_SIZE } from '../constants';
import { publishedArticles } from '../repositories/articles';
import { type RecordContext, toArticleSummary } from '../presenters/article-records';
import { renderedContentHtml } from '../infrastructure/text-work';
import { articlePageUrl, siteHomeUrl } from '../presenters/links';
import { feedDescription } from '../presenters/feed-texts';
import { getConfig, getService } from '../infrastructure/get-service';
import { copyrightNotice } from '../utils/copyright-notice';
import { recordContext } from './record-context';

export type FeedFormat = 'rss' | 'atom' | 'json';

export interface FeedRequest {
  format: FeedFormat;
  /** A category slug, or null for every category. */
  category: string | null;
  /** The absolute URL of this feed, as the reader asked for it. */
  selfUrl: string;
  /** Where this API is reached (PUBLIC_URL, else the request's origin), for links without a site. */
  apiBase: string;
}

export const FEED_CONTENT_TYPES: Record<FeedFormat, string> = {
  rss: 'application/rss+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  json: 'application/feed+json; charset=utf-8',
};

// Every character XML 1.0 does not allow (its Char production: C0 controls but tab, line feed and
// carriage return, U+FFFE, U+FFFF and lone surrogates); an XML reader refuses a feed holding one.
const NOT_XML_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text as an XML document may hold it: what XML forbids dropped. */
const xmlText = (text: string): string => text.replace(NOT_XML_CHARACTER, '');

// The `feed` library writes attribute values as given, but for the double quote it escapes itself.
const ATTRIBUTE_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Text for an attribute of the RSS or Atom feed (the cover's enclosure, Atom's categories): its markup characters escaped. */
const xmlAttribute = (url: string): string => xmlText(url).replace(/[&<>]/g, (character) => ATTRIBUTE_ESCAPES[character]);

// The root element exactly as the `feed` library writes it (feed/lib/atom1.js), which has no option for xml:lang.
const ATOM_ROOT = '<feed xmlns="http://www.w3.org/2005/Atom">';

/**
 * The Atom feed with its language on the root element (RFC 4287 §2: xml:lang), which every entry
 * inherits. The tag is a validated BCP 47 tag (letters, digits and hyphens), safe in an attribute.
 */
function atomWithLanguage(atom: string, language: string): string {
  const at = atom.indexOf(ATOM_ROOT);
  // A `feed` release that writes its root otherwise must fail the tests, not serve a feed without its language.
  if (at === -1) throw new Error('artikel: the Atom feed has no root element to name its language on');
  return `${atom.slice(0, at)}<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${language}">${atom.slice(at + ATOM_ROOT.length)}`;
}

type JsonFeedAuthor = { name?: string; url?: string };
type JsonFeedItem = Record<string, unknown> & { author?: JsonFeedAuthor };

/**
 * The `feed` library writes JSON Feed 1.0, which has no language; 1.1 adds `language` (and
 * `authors`, which replaces `author`). The feed is declared 1.1 with the language and each
 * author also as `authors`; `author` stays for readers of 1.0.
 */
function jsonFeedWithLanguage(json1: string, language: string): string {
  const {
    version: _version,
    items,
    author,
    ...head
  } = JSON.parse(json1) as Record<string, unknown> & {
    items: JsonFeedItem[];
    author?: JsonFeedAuthor;
  };
  return JSON.stringify(
    {
      version: 'https://jsonfeed.org/version/1.1',
      ...head,
      language,
      ...(author ? { author, authors: [author] } : {}),
      items: items.map((item) => (item.author ? { ...item, authors: [item.author] } : item)),
    },
    null,
    4,
  );
}

/**
 * RSS 2.0, Atom and JSON Feed of the newest published articles, all or of one category, built with
 * the `feed` library: each item links to the article's page on the public site (SITE_ARTICLE_URL),
 * carries its summary, its rendered content and its cover as the image/enclosure. Cached until the
 * next write, like every read.
 */
const feeds = ({ strapi }: { strapi: Core.Strapi }) => {
  const articles = publishedArticles(strapi);

  const build = async (request: FeedRequest): Promise<string> => {
    const studioName = getConfig(strapi, 'studioName');
    const site = { articleUrlPattern: getConfig(strapi, 'siteArticleUrl'), apiBase: request.apiBase };
    let title = studioName;
    if (request.category !== null) {
      const category = (await articles.categoryCounts()).find((candidate) => candidate.slug === request.category);
      if (category === undefined) throw new errors.NotFoundError(`No category has the slug "${request.category}"`);
      title = `${studioName}: ${category.name}`;
    }
    const context: RecordContext = recordContext(strapi, {
      mediaBaseUrl: (strapi.config.get('server.url') as string | undefined) || request.apiBase,
    });
    const records = await articles.newest({ words: [], category: request.category, tagKey: null }, FEED_SIZE);
    const newest = records[0]?.updatedAt;
    // The notice the images carry (json_ld), for the year the newest article was published.
    const newestPublished = records[0]?.publishedAt;
    const copyright = copyrightNotice(context.imageRights.copyrightNotice, {
      year: (newestPublished ? new Date(newestPublished) : new Date()).getUTCFullYear(),
      studio: studioName,
    });
    const feed = new Feed({
      title: xmlText(title),
      description: xmlText(feedDescription(title, context.language)),
      id: siteHomeUrl(site),
      link: siteHomeUrl(site),
      language: context.language,
      copyright: xmlText(copyright),
      updated: newest ? new Date(newest) : new Date(0),
      generator: 'studio article service',
      feedLinks: { [request.format]: request.selfUrl },
      author: { name: xmlText(studioName) },
    });
    // Only the XML formats need their attribute escaped; JSON Feed carries the URL as it is.
    const imageUrl = (url: string): string => (request.format === 'json' ? url : xmlAttribute(url));
    // Atom writes a category as attributes (label, term), which the `feed` library leaves unescaped
    // but for the double quote; RSS writes it as text, which it escapes.
    const categoryName = (text: string): string => (request.format === 'atom' ? xmlAttribute(text) : xmlText(text));
    for (const record of records) {
      // One at a time: a long content is rendered on a thread (see text-work.ts), and a feed of long
      // articles would otherwise fill its queue.
      const contentHtml = await renderedContentHtml(record.content, (message) => strapi.log.warn(message));
      const summary = toArticleSummary(record, context);
      const link = articlePageUrl(record.slug, site);
      feed.addItem({
        title: xmlText(summary.title),
        id: link,
        link,
        description: xmlText(summary.summary),
        content: xmlText(contentHtml),
        author: [{ name: xmlText(summary.author) }],
        date: new Date(summary.updated_at),
        published: summary.published_at ? new Date(summary.published_at) : undefined,
        category: [
          ...(summary.category ? [{ name: categoryName(summary.category.name), term: categoryName(summary.category.slug) }] : []),
          ...summary.tags.map((tag) => ({ name: categoryName(tag) })),
        ],
        ...(summary.cover_image_url ? { image: imageUrl(summary.cover_image_url) } : {}),
      });
    }
    if (request.format === 'rss') return feed.rss2();
    if (request.format === 'atom') return atomWithLanguage(feed.atom1(), context.language);
    return jsonFeedWithLanguage(feed.json1(), context.language);
  };

  return {
    /** The feed as text; a category nobody has is a 404. */
    async feed(request: FeedRequest): Promise<string> {
      return getService(strapi, 'read-cache').remember(
        `feed:${request.format}:${request.category ?? ''}:${request.selfUrl}:${request.apiBase}`,
        () => build(request),
      );
    },
  };
};

export default feeds;
