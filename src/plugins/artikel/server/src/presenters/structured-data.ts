import type { BlogPosting, ImageObject, WithContext } from 'schema-dts';
import { copyrightNotice } from '../utils/copyright-notice';

/** Who holds the rights to the studio's photos, as configured: the same for every image. */
export interface ImageRights {
  /** The notice, with {year} and {studio} (ARTIKEL_COPYRIGHT_NOTICE). */
  copyrightNotice: string;
  /** The license's URL (ARTIKEL_LICENSE_URL); null: none is named. */
  license: string | null;
  /** Where a license can be had (ARTIKEL_ACQUIRE_LICENSE_URL); null: none is named. */
  acquireLicensePage: string | null;
}

/** What a BlogPosting is made of, from the full article. */
export interface PostingSource {
  title: string;
  metaTitle: string;
  metaDescription: string;
  imageUrls: string[];
  author: string;
  studioName: string;
  /** The language the studio writes in, a BCP 47 tag (ARTIKEL_LANGUAGE). */
  language: string;
  imageRights: ImageRights;
  publishedAt: string | null;
  updatedAt: string;
  keywords: string[];
  pageUrl: string;
  section: string | null;
}

// Google shows at most 110 characters of a headline.
const HEADLINE_LENGTH = 110;

/**
 * An image with Google's licensable-image fields: the studio as its creator and credit, the
 * notice for the year the article was published (updated, for a draft's preview), and the license
 * and the page to acquire one only when they are configured, since inventing one would misstate the
 * studio's terms.
 */
function licensedImage(url: string, source: PostingSource): ImageObject {
  const { imageRights } = source;
  return {
    '@type': 'ImageObject',
    contentUrl: url,
    url,
    creator: { '@type': 'Organization', name: source.studioName },
    creditText: source.studioName,
    copyrightNotice: copyrightNotice(imageRights.copyrightNotice, {
      year: new Date(source.publishedAt ?? source.updatedAt).getUTCFullYear(),
      studio: source.studioName,
    }),
    ...(imageRights.license !== null ? { license: imageRights.license } : {}),
    ...(imageRights.acquireLicensePage !== null ? { acquireLicensePage: imageRights.acquireLicensePage } : {}),
  };
}

/**
 * The article as schema.org's BlogPosting, ready for the site to print in a
 * <script type="application/ld+json">: typed against schema.org by schema-dts.
 */
export function blogPosting(source: PostingSource): WithContext<BlogPosting> {
  const headline =
    [...source.metaTitle].length > HEADLINE_LENGTH ? `${[...source.metaTitle].slice(0, HEADLINE_LENGTH - 1).join('')}…` : source.metaTitle;
  return {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline,
    name: source.title,
    description: source.metaDescription,
    inLanguage: source.language,
    image: source.imageUrls.map((url) => licensedImage(url, source)),
    author:
      source.author === source.studioName ? { '@type': 'Organization', name: source.author } : { '@type': 'Person', name: source.author },
    publisher: { '@type': 'Organization', name: source.studioName },
    ...(source.publishedAt !== null ? { datePublished: source.publishedAt } : {}),
    dateModified: source.updatedAt,
    keywords: source.keywords.join(', '),
    url: source.pageUrl,
    mainEntityOfPage: { '@type': 'WebPage', '@id': source.pageUrl },
    ...(source.section !== null ? { articleSection: source.section } : {}),
  };
}

// Characters that end or change a <script> element's text, or end a JavaScript string in old parsers.
const UNSAFE_IN_SCRIPT = /[<>&\u2028\u2029]/g;

/**
 * A value as JSON text that can be printed as it is inside <script type="application/ld+json">:
 * `<`, `>`, `&`, U+2028 and U+2029 written as \u escapes, which every JSON parser reads back as
 * the same characters, so a title holding "</script>" cannot close the element.
 */
export function embeddableJson(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE_IN_SCRIPT, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
