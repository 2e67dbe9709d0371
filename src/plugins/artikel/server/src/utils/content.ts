import MarkdownIt from 'markdown-it';
import sanitize from 'sanitize-html';
import { neutralizeMarkdownLinks } from './markdown-links';

/**
 * What survives in stored and rendered article HTML: the structure an article needs (headings,
 * lists, links, images, figures, tables) and nothing that runs: no script, no event handlers, no
 * style, no javascript: or data: URLs.
 */
const ARTICLE_HTML_POLICY: sanitize.IOptions = {
  allowedTags: [
    ...sanitize.defaults.allowedTags.filter((tag) => tag !== 'style'),
    'img',
    'del',
    'ins',
  ],
  allowedAttributes: {
    a: ['href', 'name', 'title', 'rel', 'target'],
    img: ['src', 'srcset', 'alt', 'title', 'width', 'height', 'loading'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan', 'scope'],
    ol: ['start'],
    code: ['class'],
  },
  allowedClasses: { code: [/^language-[\w-]+$/] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  transformTags: {
    a: (tagName, attribs) =>
      attribs.target === '_blank' ? { tagName, attribs: { ...attribs, rel: 'noopener noreferrer' } } : { tagName, attribs },
  },
};

const TEXT_ONLY_POLICY: sanitize.IOptions = { allowedTags: [], allowedAttributes: {} };

// html: true so that HTML inside Markdown is kept for the sanitizer to judge, instead of shown as text.
const markdown = new MarkdownIt({ html: true, linkify: true, typographer: false });

const HTML_TAG = /<\/?[a-z][a-z0-9-]*(\s[^>]*)?\/?>|<!--/i;
const STARTS_WITH_HTML_TAG = /^\s*<([a-z][a-z0-9-]*|!--)/i;

export function containsHtml(content: string): boolean {
  return HTML_TAG.test(content);
}

export function sanitizeArticleHtml(html: string): string {
  return sanitize(html, ARTICLE_HTML_POLICY);
}

/**
 * Content is stored as submitted, except that any HTML in it is sanitized and Markdown links to
 * unsafe schemes are defused, so that no client rendering `content` itself meets a script.
 */
export function sanitizeStoredContent(content: string): string {
  return neutralizeMarkdownLinks(containsHtml(content) ? sanitizeArticleHtml(content) : content);
}

/** Safe HTML to render: an HTML document is sanitized as is; Markdown and plain text are rendered first. */
export function renderContentHtml(content: string): string {
  const html = STARTS_WITH_HTML_TAG.test(content) ? content : markdown.render(content);
  return sanitizeArticleHtml(html).trim();
}

// Where a heading, paragraph, list item, quote or table row ends; a line break inside one is only a space.
const BLOCK_END = /<\/(p|h[1-6]|li|blockquote|div|pre|figcaption|figure|tr|table|ul|ol|section|article)>/gi;
const LINE_BREAK = /<br\s*\/?>/gi;
// Never in rendered text after sanitizing: marks the block ends through the tag stripping.
const BLOCK_MARK = '\u2029';
const SENTENCE_END = /[.!?…:;]["'”’»)\]]*$/u;
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': ' ' };

/**
 * The words a reader sees: Markdown syntax and HTML tags removed, and each block (heading,
 * paragraph, list item, ...) ended as a sentence, so "## Plan for it" and a following list do not
 * run together into one sentence.
 */
export function plainText(content: string): string {
  const html = renderContentHtml(content).replace(BLOCK_END, `$&${BLOCK_MARK}`).replace(LINE_BREAK, ' ');
  return sanitize(html.replaceAll(BLOCK_MARK, `${BLOCK_MARK} `), TEXT_ONLY_POLICY)
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (entity) => ENTITIES[entity] ?? entity)
    .split(BLOCK_MARK)
    .map((block) => block.replace(/\s+/g, ' ').trim())
    .filter((block) => block !== '')
    .map((block) => (SENTENCE_END.test(block) ? block : `${block}.`))
    .join(' ');
}

const SUMMARY_TARGET_LENGTH = 200;

/** The first sentences of the plain text, up to about 200 characters, cut at a word boundary. */
export function summarize(content: string, targetLength = SUMMARY_TARGET_LENGTH): string {
  const text = plainText(content);
  if (text.length <= targetLength) return text;
  const sentences = text.match(/[^.!?]+[.!?]+(\s|$)|[^.!?]+$/g) ?? [text];
  let summary = '';
  for (const sentence of sentences) {
    if ((summary + sentence).trim().length > targetLength) break;
    summary += sentence;
  }
  summary = summary.trim();
  return summary !== '' ? summary : truncateAtWord(text, targetLength);
}

/** Text of at most maxLength characters, cut at a word boundary and marked with an ellipsis when cut. */
export function truncateAtWord(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const cut = text.slice(0, maxLength);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > 0 ? cut.slice(0, lastSpace) : cut.slice(0, maxLength - 1)).replace(/[\s,;:.-]+$/, '')}…`;
}

const WORDS_PER_MINUTE = 200;

const MARKUP = /<[^>]*>|\]\([^)]*\)|^\s*\[[^\]]+\]:.*$/gm;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const APOSTROPHE = 0x27;
const RIGHT_SINGLE_QUOTE = 0x2019;
const HYPHEN = 0x2d;

// Whether each code point below 0x3000 (Latin, Greek, Cyrillic and the other alphabets of most
// articles) is a letter or digit: 0 not yet asked, 1 yes, 2 no. Filled as texts are read.
const CACHED_CLASSES_BELOW = 0x3000;
const letterOrDigitClass = new Uint8Array(CACHED_CLASSES_BELOW);

function isLetterOrDigit(codePoint: number): boolean {
  if (codePoint < 0x80) return (codePoint >= 0x30 && codePoint <= 0x39) || ((codePoint | 0x20) >= 0x61 && (codePoint | 0x20) <= 0x7a);
  if (codePoint >= CACHED_CLASSES_BELOW) return LETTER_OR_DIGIT.test(String.fromCodePoint(codePoint));
  if (letterOrDigitClass[codePoint] === 0) letterOrDigitClass[codePoint] = LETTER_OR_DIGIT.test(String.fromCodePoint(codePoint)) ? 1 : 2;
  return letterOrDigitClass[codePoint] === 1;
}

/**
 * The words a reader reads: runs of letters and digits, an apostrophe or hyphen between two of them
 * keeping the run one word (what /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*\/gu matches). Counted in
 * one pass without building the words: this runs for every summary of every list page, and
 * collecting a 3 KB article's 500 words was a tenth of an uncached list's time.
 */
export function wordCount(text: string): number {
  let words = 0;
  let inWord = false;
  for (let index = 0; index < text.length; ) {
    // One code unit, unless it opens a surrogate pair (codePointAt then reads both).
    const unit = text.charCodeAt(index);
    const codePoint = unit >= 0xd800 && unit <= 0xdbff ? (text.codePointAt(index) as number) : unit;
    const width = codePoint > 0xffff ? 2 : 1;
    if (isLetterOrDigit(codePoint)) {
      if (!inWord) words += 1;
      inWord = true;
    } else if (inWord && (codePoint === APOSTROPHE || codePoint === RIGHT_SINGLE_QUOTE || codePoint === HYPHEN)) {
      const next = text.codePointAt(index + 1);
      inWord = next !== undefined && isLetterOrDigit(next);
    } else {
      inWord = false;
    }
    index += width;
  }
  return words;
}

/**
 * Minutes to read at 200 words a minute, at least 1. Counted on the content with its HTML tags
 * and Markdown link targets removed, which is the plain text's word count without rendering it:
 * this runs for every article of every list page.
 */
export function readingTimeMinutes(content: string): number {
  // Each kind of markup holds "<", "](" or "]:"; most articles have none, and the pattern is tried at every character.
  const hasMarkup = content.includes('<') || content.includes('](') || content.includes(']:');
  return Math.max(1, Math.ceil(wordCount(hasMarkup ? content.replace(MARKUP, ' ') : content) / WORDS_PER_MINUTE));
}
