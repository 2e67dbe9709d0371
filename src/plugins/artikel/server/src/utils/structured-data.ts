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
  const headline = [...source.metaTitle].length > HEADLINE_LENGTH ? `${[...source.metaTitle].slice(0, HEADLINE_LENGTH - 1).join('')}…` : source.metaTitle;
  return {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline,
    name: source.title,
    description: source.metaDescription,
    image: source.imageUrls,
    author: source.author === source.studioName ? { '@type': 'Organization', name: source.author } : { '@type': 'Person', name: source.author },
    publisher: { '@type': 'Organization', name: source.studioName },
    ...(source.publishedAt !== null ? { datePublished: source.publishedAt } : {}),
    dateModified: source.updatedAt,
    keywords: source.keywords.join(', '),
    url: source.pageUrl,
    mainEntityOfPage: { '@type': 'WebPage', '@id': source.pageUrl },
    ...(source.section !== null ? { articleSection: source.section } : {}),
  };
}
