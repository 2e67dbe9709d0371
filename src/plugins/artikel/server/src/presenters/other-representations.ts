import { stringify } from 'csv-stringify/sync';
import type { ArticleSummary, FullArticle } from './article-records';

/** The summary fields, in the contract's order: the CSV's header row. */
const CSV_COLUMNS = [
  'id',
  'title',
  'slug',
  'summary',
  'category',
  'tags',
  'cover_image_url',
  'author',
  'views',
  'reading_time',
  'published_at',
  'updated_at',
] as const;

// A spreadsheet runs a cell that starts with one of these as a formula (CSV injection); a leading
// apostrophe makes it text, which every spreadsheet shows without the apostrophe.
const FORMULA_START = /^[=+\-@\t\r]/;

const inert = (value: string): string => (FORMULA_START.test(value) ? `'${value}` : value);

/**
 * Article summaries as CSV (RFC 4180: CRLF line ends, quotes doubled, a header row naming the
 * fields), for spreadsheets that only fetch a URL: tags joined with ", ", the category by its name.
 */
export function summariesCsv(articles: ArticleSummary[], options: { bom?: boolean } = {}): string {
  const rows = articles.map((article) => {
    const cells: Record<(typeof CSV_COLUMNS)[number], string> = {
      id: article.id,
      title: article.title,
      slug: article.slug,
      summary: article.summary,
      category: article.category?.name ?? '',
      tags: article.tags.join(', '),
      cover_image_url: article.cover_image_url ?? '',
      author: article.author,
      views: String(article.views),
      reading_time: String(article.reading_time),
      published_at: article.published_at ?? '',
      updated_at: article.updated_at,
    };
    return CSV_COLUMNS.map((column) => inert(cells[column]));
  });
  const csv = stringify([[...CSV_COLUMNS], ...rows], { record_delimiter: 'windows' });
  // Excel reads a CSV without a byte order mark in the machine's legacy code page ("Ã¼" for "ü").
  return options.bom === true ? `\uFEFF${csv}` : csv;
}

/** A front-matter value: JSON's string syntax is valid YAML, so any text is one safe scalar. */
const yamlValue = (value: string | number | null): string =>
  value === null ? 'null' : typeof value === 'number' ? String(value) : JSON.stringify(value);

/**
 * An article as Markdown, for agents and tools that read Markdown better than HTML in JSON: YAML
 * front matter with the record's fields, then the title as a heading and the content. View counts
 * are left out: the text (and its ETag) changes only when the article does. The content comes
 * already converted (see contentAsMarkdown in utils/html-markdown.ts), which takes a thread's while.
 */
export function articleMarkdown(article: FullArticle, contentMarkdown: string, language: string): string {
  const front: Array<[string, string | number | null]> = [
    ['title', article.title],
    ['slug', article.slug],
    ['summary', article.summary],
    ['category', article.category?.name ?? null],
    ['tags', article.tags.join(', ')],
    ['author', article.author],
    ['cover_image_url', article.cover_image_url],
    ['reading_time', article.reading_time],
    ['published_at', article.published_at],
    ['updated_at', article.updated_at],
    ['status', article.status],
    // The language it is written in (ARTIKEL_LANGUAGE), as static site generators read it.
    ['language', language],
  ];
  const lines = front.map(([key, value]) => `${key}: ${yamlValue(value)}`);
  return `---\n${lines.join('\n')}\n---\n\n# ${article.title}\n\n${contentMarkdown.trim()}\n`;
}
