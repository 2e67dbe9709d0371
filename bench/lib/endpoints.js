// @ts-check
'use strict';

const { createArticleGenerator } = require('./article-generator');
const { publishedSlugs } = require('./store');
const { CATEGORIES, TAGS } = require('./vocabulary');

const SLUG_SAMPLE = 2000;
const WORD_SAMPLE = 50;
const TAG_SAMPLE = 6;
const PAGE_SIZE = 10;
// How many of the sampled words the SQL-only search comparisons (SQLite and PostgreSQL) time.
const SEARCH_SQL_WORDS = 30;

/**
 * The words searched for: real words spread evenly over the vocabulary, which the generator orders
 * from most to least frequent, so they match anything from most articles to a handful.
 */
function searchWordSample() {
  const candidates = createArticleGenerator().realWords.filter((word) => word.length >= 3);
  return Array.from(
    { length: Math.min(WORD_SAMPLE, candidates.length) },
    (_, i) => candidates[Math.floor((i * candidates.length) / WORD_SAMPLE)],
  );
}

/**
 * What the requests rotate over. Slugs are read from the store (SQLite file or PostgreSQL database);
 * words come from the seeder's vocabulary, evenly spread over its frequency ranks so that some match
 * most articles and some a few; tags are ones no other tag contains, so that stock's substring filter
 * selects the same articles as the plugin's whole-tag match.
 */
async function sampleRequests(store) {
  const slugs = await publishedSlugs(store, SLUG_SAMPLE);
  const words = searchWordSample();
  const lower = TAGS.map((tag) => tag.toLowerCase());
  const standalone = TAGS.filter((tag, i) => lower.every((other, j) => j === i || !other.includes(lower[i])));
  const tags = Array.from({ length: TAG_SAMPLE }, (_, i) => standalone[Math.floor((i * standalone.length) / TAG_SAMPLE)]);
  return { slugs, words, tags, categories: CATEGORIES.map((category) => category.slug) };
}

// Strapi's qs parser takes brackets either way; encoded they are valid in any HTTP client.
const q = (text) => text.replace(/\[/g, '%5B').replace(/\]/g, '%5D');
const e = encodeURIComponent;

const STOCK_LIST = q(`/api/articles?populate=category&pagination[pageSize]=${PAGE_SIZE}&sort=publishedAt:desc`);

/**
 * The seven endpoints, each with its request paths on every server. `expect` says what a
 * correct answer holds, checked before any measurement.
 */
function endpointPlan(samples) {
  const ours = (suffix) => `/api/artikel${suffix}`;
  const plan = [
    {
      key: 'list',
      label: 'list',
      expect: { kind: 'page' },
      paths: { ours: [ours('')], stock: [STOCK_LIST], raw: [ours('')] },
    },
    {
      key: 'q',
      label: `list ?q (${samples.words.length} words)`,
      expect: { kind: 'page' },
      paths: {
        ours: samples.words.map((word) => ours(`?q=${e(word)}`)),
        stock: samples.words.map(
          (word) =>
            `${STOCK_LIST}${q(`&filters[$or][0][title][$containsi]=${e(word)}&filters[$or][1][content][$containsi]=${e(word)}&filters[$or][2][tags][$containsi]=${e(word)}`)}`,
        ),
        raw: samples.words.map((word) => ours(`?q=${e(word)}`)),
      },
    },
    {
      key: 'kategori',
      label: `list ?kategori (${samples.categories.length})`,
      expect: { kind: 'page', nonEmpty: true },
      paths: {
        ours: samples.categories.map((slug) => ours(`?kategori=${e(slug)}`)),
        stock: samples.categories.map((slug) => `${STOCK_LIST}${q(`&filters[category][slug][$eqi]=${e(slug)}`)}`),
        raw: samples.categories.map((slug) => ours(`?kategori=${e(slug)}`)),
      },
    },
    {
      key: 'tag',
      label: `list ?tag (${samples.tags.length})`,
      expect: { kind: 'page', nonEmpty: true },
      paths: {
        ours: samples.tags.map((tag) => ours(`?tag=${e(tag)}`)),
        stock: samples.tags.map((tag) => `${STOCK_LIST}${q(`&filters[tags][$containsi]=${e(tag)}`)}`),
        raw: samples.tags.map((tag) => ours(`?tag=${e(tag)}`)),
      },
    },
    {
      key: 'slug',
      label: `article by slug (${samples.slugs.length})`,
      expect: { kind: 'article' },
      note: 'stock cannot count a view: its slug read is a plain filtered find',
      paths: {
        ours: samples.slugs.map((slug) => ours(`/${e(slug)}`)),
        stock: samples.slugs.map((slug) => q(`/api/articles?filters[slug][$eq]=${e(slug)}&populate=category`)),
        raw: samples.slugs.map((slug) => ours(`/${e(slug)}`)),
      },
    },
    {
      key: 'categories',
      label: 'categories',
      expect: { kind: 'categories', count: CATEGORIES.length },
      paths: { ours: [ours('/categories')], stock: [q('/api/categories?sort=name&pagination[pageSize]=100')], raw: [ours('/categories')] },
    },
    {
      key: 'latest',
      label: 'latest',
      expect: { kind: 'latest', count: 5 },
      paths: {
        ours: [ours('/latest')],
        stock: [q('/api/articles?populate=category&sort=publishedAt:desc&pagination[pageSize]=5')],
        raw: [ours('/latest')],
      },
    },
  ];
  // ours2 (our app twice behind one load generator) and uncached (our app without its response
  // cache) answer ours's requests; rawlike is raw searching by the LIKE scan.
  for (const endpoint of plan) {
    endpoint.paths.ours2 = endpoint.paths.ours;
    endpoint.paths.uncached = endpoint.paths.ours;
    endpoint.paths.rawlike = endpoint.paths.raw;
  }
  return plan;
}

module.exports = { sampleRequests, searchWordSample, endpointPlan, PAGE_SIZE, SEARCH_SQL_WORDS };
