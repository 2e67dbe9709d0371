/**
 * The contract's limits on an article's fields, in characters, for every way an article is
 * written: POST, the Content Manager, the defaults the service derives (a generated slug, a
 * meta_description cut from the summary). The OpenAPI document states the same (a test holds
 * them together); the content types' schema.json files are Strapi's JSON and say them again.
 */
export const FIELD_LIMITS = {
  title: 255,
  slug: 191,
  category: 100,
  author: 255,
  meta_title: 300,
  meta_description: 500,
  meta_keywords: 500,
  summary: 1000,
  cover_image_url: 2048,
} as const;

/** Tags: how many an article may have, and the characters of each. */
export const MAX_TAGS = 20;
export const MAX_TAG_LENGTH = 50;
