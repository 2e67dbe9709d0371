import MarkdownIt from 'markdown-it';
import sanitize from 'sanitize-html';
import { neutralizeMarkdownLinks } from './markdown-links';

/**
 * What survives in stored and rendered article HTML: the structure an article needs (headings,
 * lists, links, images, figures, tables) and nothing that runs: no script, no event handlers, no
 * style, no javascript: or data: URLs.
 */
const ARTICLE_HTML_POLICY: sanitize.IOptions = {
  allowedTags: [...sanitize.defaults.allowedTags.filter((tag) => tag !== 'style'), 'img', 'del', 'ins'],
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

const STARTS_WITH_HTML_TAG = /^\s*<([a-z][a-z0-9-]*|!--)/i;
const ASCII_LETTER = /^[a-z]$/i;
const TAG_NAME_CHARACTER = /^[a-z0-9-]$/i;
const WHITESPACE = /^\s$/;

/**
 * Whether the content holds an HTML tag or comment: what /<\/?[a-z][a-z0-9-]*(\s[^>]*)?\/?>|<!--/i
 * finds, in one pass. That pattern ran from every "<" to the end of the text when no ">" followed
 * ("<a " repeated 8,000 times: 0.29 s); here a tag with attributes only asks whether any ">" comes later.
 */
export function containsHtml(content: string): boolean {
  const lastClose = content.lastIndexOf('>');
  for (let open = content.indexOf('<'); open !== -1; open = content.indexOf('<', open + 1)) {
    if (content.startsWith('!--', open + 1)) return true;
    let index = open + 1;
    if (content[index] === '/') index += 1;
    if (!ASCII_LETTER.test(content[index] ?? '')) continue;
    while (TAG_NAME_CHARACTER.test(content[index] ?? '')) index += 1;
    if (content[index] === '>' || content.startsWith('/>', index)) return true;
    // Attributes: anything up to a later ">" (the pattern's [^>]* then an optional "/" and ">").
    if (WHITESPACE.test(content[index] ?? '') && lastClose > index) return true;
  }
  return false;
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

/**
 * The last few short contents rendered, newest last. A write renders its content twice (its summary
 * is made from the rendered text, and its answer carries `content_html`), and so does a read of an
 * article just written: the second render of the same text is looked up. Short texts only (they
 * are rendered on the caller's thread; see INLINE_BELOW in infrastructure/text-work.ts), so that
 * this holds at most RENDERS_KEPT × 2 × RENDER_KEPT_BELOW characters. The result is the same
 * either way: the render is a function of the text alone.
 */
const recentRenders = new Map<string, string>();
const RENDERS_KEPT = 16;
const RENDER_KEPT_BELOW = 4_000;

/** Safe HTML to render: an HTML document is sanitized as is; Markdown and plain text are rendered first. */
export function renderContentHtml(content: string): string {
  const kept = content.length < RENDER_KEPT_BELOW ? recentRenders.get(content) : undefined;
  if (kept !== undefined) return kept;
  const html = STARTS_WITH_HTML_TAG.test(content) ? content : markdown.render(content);
  const rendered = sanitizeArticleHtml(html).trim();
  if (content.length < RENDER_KEPT_BELOW && rendered.length < 2 * RENDER_KEPT_BELOW) {
    recentRenders.set(content, rendered);
    if (recentRenders.size > RENDERS_KEPT) recentRenders.delete(recentRenders.keys().next().value as string);
  }
  return rendered;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Text as HTML that shows it as it is: nothing in it is markup any more. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>]/g, (character) => HTML_ESCAPES[character]);
}

const ATTRIBUTE_ESCAPES: Record<string, string> = { ...HTML_ESCAPES, '"': '&quot;', "'": '&#39;' };

/** Text as HTML that shows it as it is also inside an attribute's quotes (either kind). */
export function escapeHtmlAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ATTRIBUTE_ESCAPES[character]);
}

// Where a heading, paragraph, list item, quote or table row ends; a line break inside one is only a space.
const BLOCK_END = /<\/(p|h[1-6]|li|blockquote|div|pre|figcaption|figure|tr|table|ul|ol|section|article)>/gi;
const LINE_BREAK = /<br\s*\/?>/gi;
// Never in rendered text after sanitizing: marks the block ends through the tag stripping.
const BLOCK_MARK = '\u2029';
// A block ends a sentence when its last mark, before any closing quotes and brackets, is one of these
// (what /[.!?…:;]["'”’»)\]]*$/ says, checked from the end: the pattern rescanned the closers from every mark).
const SENTENCE_MARKS = '.!?…:;';
const SENTENCE_CLOSERS = `"'”’»)]`;

function endsSentence(block: string): boolean {
  let end = block.length;
  while (end > 0 && SENTENCE_CLOSERS.includes(block[end - 1])) end -= 1;
  return end > 0 && SENTENCE_MARKS.includes(block[end - 1]);
}
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
    .map((block) => (endsSentence(block) ? block : `${block}.`))
    .join(' ');
}

const SUMMARY_TARGET_LENGTH = 200;

/** The first sentences of the plain text, up to about 200 characters, cut at a word boundary. */
export function summarize(content: string, targetLength = SUMMARY_TARGET_LENGTH): string {
  const text = plainText(content);
  if (text.length <= targetLength) return text;
  const sentences = splitSentences(text);
  let summary = '';
  for (const sentence of sentences) {
    if ((summary + sentence).trim().length > targetLength) break;
    summary += sentence;
  }
  summary = summary.trim();
  return summary !== '' ? summary : truncateAtWord(text, targetLength);
}

const SENTENCE_TERMINATORS = '.!?';

/**
 * The sentences of a text as /[^.!?]+[.!?]+(\s|$)|[^.!?]+$/g matched them (the text itself when none),
 * in one pass: the pattern rescanned a run without a terminator from each of its characters when
 * the run's terminators were followed by a letter ("a"×32,000 + ".x": 1.7 s).
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  let index = 0;
  while (index < text.length) {
    if (SENTENCE_TERMINATORS.includes(text[index])) {
      index += 1;
      continue;
    }
    let terminator = index;
    while (terminator < text.length && !SENTENCE_TERMINATORS.includes(text[terminator])) terminator += 1;
    if (terminator === text.length) {
      sentences.push(text.slice(index));
      break;
    }
    let after = terminator;
    while (after < text.length && SENTENCE_TERMINATORS.includes(text[after])) after += 1;
    if (after === text.length) {
      sentences.push(text.slice(index, after));
    } else if (WHITESPACE.test(text[after])) {
      sentences.push(text.slice(index, after + 1));
      after += 1;
    }
    // Otherwise no sentence starts anywhere in this run (each start meets the same terminators): skip it.
    index = after;
  }
  return sentences.length > 0 ? sentences : [text];
}

/** Text of at most maxLength characters, cut at a word boundary and marked with an ellipsis when cut. */
export function truncateAtWord(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const cut = text.slice(0, maxLength);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > 0 ? cut.slice(0, lastSpace) : cut.slice(0, maxLength - 1)).replace(/[\s,;:.-]+$/, '')}…`;
}

const WORDS_PER_MINUTE = 200;

const LINE_TERMINATORS = '\n\r\u2028\u2029';

/**
 * The next index at or after a position where a character occurs, for positions that only grow:
 * an answer is reused until the position passes it, so all the questions of one pass together
 * read the text once.
 */
function nextIndexFinder(text: string, isWanted: (character: string) => boolean): (from: number) => number {
  let answeredFrom = 0;
  let answer = -2;
  return (from) => {
    if (answer === -1 && from >= answeredFrom) return -1;
    if (answer >= from && from >= answeredFrom) return answer;
    answeredFrom = from;
    answer = -1;
    for (let index = from; index < text.length; index += 1) {
      if (isWanted(text[index])) {
        answer = index;
        break;
      }
    }
    return answer;
  };
}

/**
 * The content with every HTML tag, Markdown link target and link definition replaced by a space:
 * exactly what content.replace(/<[^>]*>|\]\([^)]*\)|^\s*\[[^\]]+\]:.*$/gm, ' ') gave, in one pass.
 * That pattern read from every unclosed "<" or "](" to the end of the text (quadratic: "‹"×64,000
 * or "<" repeated took seconds), so each "next >, ), ], line end, non-space" is found once here.
 */
export function withoutMarkup(content: string): string {
  const nextClose = nextIndexFinder(content, (character) => character === '>');
  const nextParenthesis = nextIndexFinder(content, (character) => character === ')');
  const nextBracket = nextIndexFinder(content, (character) => character === ']');
  const nextLineEnd = nextIndexFinder(content, (character) => LINE_TERMINATORS.includes(character));
  const nextNonSpace = nextIndexFinder(content, (character) => !WHITESPACE.test(character));
  let result = '';
  let copied = 0;
  let index = 0;
  while (index < content.length) {
    let end = -1;
    const character = content[index];
    if (character === '<') {
      const close = nextClose(index + 1);
      if (close !== -1) end = close + 1;
    }
    if (end === -1 && character === ']' && content[index + 1] === '(') {
      const close = nextParenthesis(index + 2);
      if (close !== -1) end = close + 1;
    }
    if (end === -1 && (index === 0 || LINE_TERMINATORS.includes(content[index - 1]))) {
      // ^\s*\[[^\]]+\]: then the rest of the line; \s* may cross line ends, [^\]]+ too.
      const bracket = nextNonSpace(index);
      if (bracket !== -1 && content[bracket] === '[') {
        const close = nextBracket(bracket + 1);
        if (close > bracket + 1 && content[close + 1] === ':') {
          const lineEnd = nextLineEnd(close + 2);
          end = lineEnd === -1 ? content.length : lineEnd;
        }
      }
    }
    if (end === -1) {
      index += 1;
      continue;
    }
    result += `${content.slice(copied, index)} `;
    copied = end;
    index = end;
  }
  return result + content.slice(copied);
}
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const APOSTROPHE = 0x27;
const RIGHT_SINGLE_QUOTE = 0x2019;
const HYPHEN = 0x2d;

// Whether each code point below 0x3000 (Latin, Greek, Cyrillic and the other alphabets of most
// articles) is a letter or digit: 0 not yet asked, 1 yes, 2 no. Filled as texts are read.
const CACHED_CLASSES_BELOW = 0x3000;
const letterOrDigitClass = new Uint8Array(CACHED_CLASSES_BELOW);

/** Whether a code point is a letter or a digit (Unicode's L and N): what a word is a run of. */
export function isLetterOrDigit(codePoint: number): boolean {
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
  for (let index = 0; index < text.length;) {
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
  return Math.max(1, Math.ceil(wordCount(hasMarkup ? withoutMarkup(content) : content) / WORDS_PER_MINUTE));
}
