'use strict';

const MarkdownIt = require('markdown-it');

// The contract's record shapes, built from plain rows. Field order matches the plugin's output so
// the two can be compared byte for byte by eye.

const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });
const WORDS_PER_MINUTE = 200;
const SUMMARY_LENGTH = 200;

const blankToNull = (value) => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** Strapi stores datetimes as epoch milliseconds in SQLite; older rows may hold ISO text. */
function isoString(value) {
  if (value === null || value === undefined || value === '') return null;
  const date = new Date(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function parseTags(input) {
  if (!input) return [];
  const seen = new Set();
  const tags = [];
  for (const raw of input.split(',')) {
    const tag = raw.trim();
    const key = tag.toLowerCase();
    if (tag === '' || seen.has(key)) continue;
    seen.add(key);
    tags.push(tag);
  }
  return tags;
}

/**
 * Words a reader sees, without rendering: a whitespace-separated token counts when it holds a
 * letter or digit, so Markdown markers (#, -, *, >) alone do not. Same count as the plugin's for
 * the prose the seeder writes.
 */
function readingTime(content) {
  let words = 0;
  for (const token of (content ?? '').split(/\s+/)) if (/[\p{L}\p{N}]/u.test(token)) words += 1;
  return Math.max(1, Math.ceil(words / WORDS_PER_MINUTE));
}

/** Only for an article stored without a summary; the seeded ones all have one. */
function fallbackSummary(content) {
  const text = (content ?? '')
    .replace(/[#>*_`~[\]()!-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= SUMMARY_LENGTH) return text;
  const cut = text.slice(0, SUMMARY_LENGTH);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 1))}…`;
}

function createRecords({ studioName, mediaBaseUrl }) {
  const mediaUrl = (url) => (url.startsWith('/') ? `${mediaBaseUrl.replace(/\/$/, '')}${url}` : url);

  const summary = (row) => ({
    id: row.document_id,
    title: row.title ?? '',
    slug: row.slug ?? '',
    summary: blankToNull(row.summary) ?? fallbackSummary(row.content),
    category: row.category_name === null ? null : { name: row.category_name, slug: row.category_slug ?? '' },
    tags: parseTags(row.tags),
    cover_image_url: blankToNull(row.cover_image_url) ?? (row.cover_media_url ? mediaUrl(row.cover_media_url) : null),
    author: blankToNull(row.author) ?? studioName,
    views: Number(row.views ?? 0),
    reading_time: readingTime(row.content),
    published_at: isoString(row.published_at),
    updated_at: isoString(row.updated_at) ?? '',
  });

  const full = (row, views, related) => {
    const base = { ...summary(row), views };
    const gallery = row.gallery ? JSON.parse(row.gallery) : [];
    return {
      ...base,
      content: row.content ?? '',
      content_html: markdown.render(row.content ?? '').trim(),
      gallery: gallery.map((image) => ({
        url: mediaUrl(image.url),
        alt: image.alt ?? '',
        caption: image.caption ?? '',
        width: image.width ?? null,
        height: image.height ?? null,
      })),
      meta_title: blankToNull(row.meta_title) ?? base.title,
      meta_description: blankToNull(row.meta_description) ?? base.summary,
      meta_keywords: blankToNull(row.meta_keywords),
      related,
      status: row.published_at === null ? 'draft' : 'published',
      created_at: isoString(row.created_at) ?? '',
    };
  };

  return { summary, full };
}

module.exports = { createRecords, parseTags };
