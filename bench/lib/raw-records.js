// @ts-check
'use strict';

const MarkdownIt = require('markdown-it');
const { content: pluginContent, tags: pluginTags } = require('./plugin');

// The contract's record shapes, built from plain rows. Field order matches the plugin's output so
// the two can be compared byte for byte by eye.

const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });
// The plugin's own: tags as it parses them, its reading time, and its default summary (only for an
// article stored without one; the seeded ones all have one).
const { parseTags } = pluginTags;
const { readingTimeMinutes, summarize } = pluginContent();

const blankToNull = (value) => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** Strapi stores datetimes as epoch milliseconds in SQLite; older rows may hold ISO text. */
function isoString(value) {
  if (value === null || value === undefined || value === '') return null;
  const date = new Date(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function createRecords({ studioName, mediaBaseUrl }) {
  const mediaUrl = (url) => (url.startsWith('/') ? `${mediaBaseUrl.replace(/\/$/, '')}${url}` : url);

  const summary = (row) => ({
    id: row.document_id,
    title: row.title ?? '',
    slug: row.slug ?? '',
    summary: blankToNull(row.summary) ?? summarize(row.content ?? ''),
    category: row.category_name === null ? null : { name: row.category_name, slug: row.category_slug ?? '' },
    tags: parseTags(row.tags),
    cover_image_url: blankToNull(row.cover_image_url) ?? (row.cover_media_url ? mediaUrl(row.cover_media_url) : null),
    author: blankToNull(row.author) ?? studioName,
    views: Number(row.views ?? 0),
    reading_time: readingTimeMinutes(row.content ?? ''),
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
