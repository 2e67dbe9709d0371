import type { Core } from '@strapi/strapi';
import MarkdownIt from 'markdown-it';
import { viewsWritten } from './fixtures';

/** Prints one measured figure of the robustness suite, so a CI log carries every number. */
export function reportFigure(label: string, value: string | number): void {
  process.stdout.write(`[robustness] ${label}: ${value}\n`);
}

interface HttpAnswer {
  status: number;
  body: unknown;
  text?: string;
}

/** Whether an answer is Strapi's error body with the answer's own status, and no internals in it. */
export function isContractError(answer: HttpAnswer): boolean {
  const body = answer.body as { data?: unknown; error?: { status?: unknown; name?: unknown; message?: unknown; details?: unknown } } | null;
  const error = body?.error;
  return (
    body !== null &&
    typeof body === 'object' &&
    body.data === null &&
    error !== undefined &&
    error.status === answer.status &&
    typeof error.name === 'string' &&
    typeof error.message === 'string' &&
    typeof error.details === 'object' &&
    !/SQLITE|knex|\bselect\b.*\bfrom\b|\binsert into\b|\n\s+at |duplicate key value|violates [\w-]+ (key )?constraint|syntax error at or near|invalid byte sequence|invalid input syntax for/i.test(
      JSON.stringify(body),
    )
  );
}

/**
 * Row counts of every table a write can touch; equal before and after means nothing was stored.
 * The search index's table is counted where the store has one (the index differs per store).
 */
export async function storedRowCounts(strapi: Core.Strapi): Promise<Record<string, number>> {
  // Views counted so far are written first (on SQLite they are written together, every ARTIKEL_VIEW_WRITE_MS).
  await viewsWritten(strapi);
  const searchIndex = (await strapi.db.connection.schema.hasTable('artikel_search_docs')) ? ['artikel_search_docs'] : [];
  const tables = [
    'articles',
    'categories',
    'articles_category_lnk',
    'artikel_tags',
    ...searchIndex,
    'artikel_view_counts',
    'artikel_idempotency_keys',
    'files',
  ];
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const row = (await strapi.db.connection(table).count({ total: '*' }).first()) as { total: number | string };
    counts[table] = Number(row.total);
  }
  return counts;
}

const UNSAFE_TAGS = new Set([
  'script',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'svg',
  'math',
  'style',
  'link',
  'meta',
  'base',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'body',
  'html',
  'details',
]);
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'xlink:href',
  'data',
  'poster',
  'background',
  'srcset',
  'cite',
  'longdesc',
]);
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto', 'tel']);
const TAG = /<\s*([a-zA-Z][\w:-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/?>/g;
const ATTRIBUTE = /([^\s=>/]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g;

function decodeEntities(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);?/gi, (_match, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);?/g, (_match, decimal: string) => String.fromCodePoint(Number(decimal)))
    .replace(/&colon;/gi, ':')
    .replace(/&tab;/gi, '\t')
    .replace(/&newline;/gi, '\n')
    .replace(/&quot;/gi, '"')
    .replace(/&apos;/gi, "'")
    .replace(/&amp;/gi, '&');
}

function unsafeUrl(value: string): boolean {
  return value
    .split(',')
    .map((candidate) => decodeEntities(candidate).replace(/[\u0000-\u0020\u007f-\u009f]+/g, ''))
    .some((url) => {
      const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url);
      return scheme !== null && !SAFE_SCHEMES.has(scheme[1].toLowerCase());
    });
}

/** What a browser could run in this HTML: unsafe tags, event handlers, styles and non-web URLs. */
export function unsafeHtmlFindings(html: string): string[] {
  const findings: string[] = [];
  if (/<\s*script/i.test(html)) findings.push('<script');
  for (const [, tagName, attributes] of html.matchAll(TAG)) {
    if (UNSAFE_TAGS.has(tagName.toLowerCase())) findings.push(`<${tagName}>`);
    for (const [, rawName, rawValue = ''] of attributes.matchAll(ATTRIBUTE)) {
      const name = rawName.toLowerCase();
      const value = rawValue.replace(/^["']|["']$/g, '');
      if (name.startsWith('on')) findings.push(`${tagName} ${name}=`);
      if (name === 'style' || name === 'srcdoc') findings.push(`${tagName} ${name}=`);
      if (URL_ATTRIBUTES.has(name) && unsafeUrl(value)) findings.push(`${tagName} ${name}=${value}`);
    }
  }
  return findings;
}

// The most permissive Markdown renderer a client could use: raw HTML on, every link accepted.
const permissiveMarkdown = new MarkdownIt({ html: true, linkify: true });
permissiveMarkdown.validateLink = () => true;

/** Unsafe findings in stored content, read as HTML and as Markdown rendered without any link check. */
export function unsafeContentFindings(content: string): string[] {
  return [...unsafeHtmlFindings(content), ...unsafeHtmlFindings(permissiveMarkdown.render(content))];
}
