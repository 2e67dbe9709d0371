import MarkdownIt from 'markdown-it';

/** The URL schemes a stored link may carry; anything else (javascript:, vbscript:, data:, file:) is replaced. */
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto', 'tel']);
const REPLACEMENT_DESTINATION = '#';
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
// Browsers drop control characters and spaces inside a URL's scheme: "java\tscript:" runs.
const IGNORED_BY_BROWSERS = /[\u0000-\u0020\u007f-\u009f]+/g;
const { unescapeAll } = new MarkdownIt().utils;

/** Whether a link destination, as written in Markdown (escapes and entities included), is safe to follow. */
export function isSafeLinkDestination(destination: string): boolean {
  const url = unescapeAll(destination).replace(IGNORED_BY_BROWSERS, '');
  const scheme = SCHEME.exec(url);
  return scheme === null || SAFE_SCHEMES.has(scheme[1].toLowerCase());
}

const DESTINATION_BREAK = /[\s\u0000-\u001f\u007f]/;

/** The end of a link destination starting at `start` (CommonMark: <…>, or a run without spaces and with balanced parentheses). */
function destinationEnd(text: string, start: number): number {
  if (text[start] === '<') {
    const close = angleDestinationClose(text, start);
    return close !== -1 && text[close] === '>' ? close + 1 : start;
  }
  let depth = 0;
  let index = start;
  while (index < text.length) {
    const character = text[index];
    if (character === '\\' && index + 1 < text.length) {
      index += 2;
      continue;
    }
    if (DESTINATION_BREAK.test(character)) break;
    if (character === '(') depth += 1;
    if (character === ')') {
      if (depth === 0) break;
      depth -= 1;
    }
    index += 1;
  }
  return index;
}

/** The first "<", ">" or line end after the "<" at `start` of a <…> destination, or -1. */
function angleDestinationClose(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index += 1) {
    if (text[index] === '<' || text[index] === '>' || text[index] === '\n') return index;
  }
  return -1;
}

// A character that can take no part in a URL scheme, even through an escape or an entity: the
// scheme is decided before the first of them, so a destination's scheme is read only up to there.
const ENDS_SCHEME_PART = /[\s\u0000-\u001f\u007f()[\]<>]/;

/**
 * The part of the destination at `start` that decides its scheme: up to the first character of
 * ENDS_SCHEME_PART (for a <…> destination, up to its first "<", ">" or line end). Every opener's
 * part ends before the next opener's "]" or "<", so reading them all is one pass; reading each destination to its end was
 * quadratic ("](" repeated 8,000 times: 1.08 s).
 */
function schemePart(text: string, start: number): string {
  // A <…> destination may hold spaces (which browsers drop from a scheme): it is read to its close.
  if (text[start] === '<') {
    const close = angleDestinationClose(text, start);
    return text.slice(start + 1, close === -1 ? text.length : close);
  }
  let index = start;
  while (index < text.length && !ENDS_SCHEME_PART.test(text[index])) index += 1;
  return text.slice(start, index);
}

function skipLinkSpace(text: string, start: number): number {
  let index = start;
  while (text[index] === ' ' || text[index] === '\t') index += 1;
  if (text[index] === '\n') index += 1;
  while (text[index] === ' ' || text[index] === '\t') index += 1;
  return index;
}

// Where Markdown reads a destination: after "](" (links, images) and after "[label]:" (definitions).
const DESTINATION_OPENERS = /\]\(|^ {0,3}\[(?:[^\]\\\n]|\\.){1,999}\]:/gm;
const AUTOLINK = /<([a-z][a-z0-9+.-]{1,31}:[^\s<>]*)>/gi;

/**
 * Markdown stored with its links made safe: a destination with an unsafe scheme becomes "#", an
 * unsafe autolink is removed. Everything else is kept exactly as written.
 */
export function neutralizeMarkdownLinks(text: string): string {
  let result = '';
  let copied = 0;
  for (const opener of text.matchAll(DESTINATION_OPENERS)) {
    const start = skipLinkSpace(text, (opener.index ?? 0) + opener[0].length);
    if (start < copied) continue;
    // The scheme is judged first, on the part that decides it; only an unsafe destination is read
    // to its end (then skipped by every later opener), which keeps the whole text one pass.
    if (isSafeLinkDestination(schemePart(text, start))) continue;
    const end = destinationEnd(text, start);
    if (end > start) {
      result += text.slice(copied, start) + REPLACEMENT_DESTINATION;
      copied = end;
    }
  }
  result += text.slice(copied);
  return result.replace(AUTOLINK, (autolink, url: string) => (isSafeLinkDestination(url) ? autolink : ''));
}
