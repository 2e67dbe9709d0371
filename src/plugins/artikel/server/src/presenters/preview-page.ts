import { escapeHtml, escapeHtmlAttribute } from '../utils/content';
import type { FullArticle } from './article-records';

/** What the page says about the version shown, in the studio's language (ARTIKEL_LANGUAGE) or English. */
const NOTES: Record<'id' | 'en', Record<FullArticle['status'], string> & { heading: string }> = {
  id: {
    heading: 'Pratinjau',
    draft: 'Draf: belum tampil di situs',
    scheduled: 'Terjadwal: belum tampil di situs',
    published: 'Terbit: seperti yang dibaca pengunjung',
  },
  en: {
    heading: 'Preview',
    draft: 'Draft: not on the site yet',
    scheduled: 'Scheduled: not on the site yet',
    published: 'Published: as readers see it',
  },
};

// Inline, so the page needs nothing but itself (the service's CSP admits inline styles, no script).
const STYLE = [
  'body{font:17px/1.6 system-ui,sans-serif;color:#222;max-width:44rem;margin:0 auto;padding:1.5rem 1rem 4rem}',
  '.note{font-size:14px;background:#f0f0ff;color:#32324d;border-radius:4px;padding:.5rem .75rem}',
  'h1{font-size:2rem;line-height:1.25;margin:1.5rem 0 .5rem}.meta{color:#666;font-size:15px}',
  '.summary{font-size:1.1rem;color:#444}img{max-width:100%;height:auto}',
  'table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25rem .5rem}',
].join('');

/**
 * The service's own preview of an article, for a studio without a site of its own (no
 * SITE_ARTICLE_URL; the demo): its title, category, author, cover, summary and content as HTML,
 * with a note that says which version it is. Every text is escaped; the content is the sanitized
 * HTML every record carries (content_html). Not for search engines.
 */
export function previewPage(article: FullArticle, language: string): string {
  const notes = language.toLowerCase().startsWith('id') ? NOTES.id : NOTES.en;
  const byline = [article.category?.name, article.author].filter((part): part is string => typeof part === 'string' && part !== '');
  const cover = article.cover?.url ?? article.cover_image_url;
  return [
    '<!doctype html>',
    `<html lang="${escapeHtmlAttribute(language)}"><head><meta charset="utf-8">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">',
    `<title>${escapeHtml(`${notes.heading}: ${article.title}`)}</title><style>${STYLE}</style></head><body>`,
    `<p class="note" data-status="${article.status}">${escapeHtml(`${notes.heading} · ${notes[article.status]}`)}</p>`,
    `<article><h1>${escapeHtml(article.title)}</h1>`,
    byline.length > 0 ? `<p class="meta">${escapeHtml(byline.join(' · '))}</p>` : '',
    cover ? `<img src="${escapeHtmlAttribute(cover)}" alt="">` : '',
    article.summary !== '' ? `<p class="summary">${escapeHtml(article.summary)}</p>` : '',
    article.content_html,
    '</article></body></html>',
  ].join('');
}
