import type { BlogPosting, WithContext } from 'schema-dts';

/** What a BlogPosting is made of, from the full article. */
export interface PostingSource {
  title: string;
  metaTitle: string;
  metaDescription: string;
  imageUrls: string[];
  author: string;
  studioName: string;
  publishedAt: string | null;
  updatedAt: string;
  keywords: string[];
  pageUrl: string;
  section: string | null;
}

// Google shows at most 110 characters of a headline.
const HEADLINE_LENGTH = 110;

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
    image: source.imageUrls,
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
