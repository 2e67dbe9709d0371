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

/** The end of a link destination starting at `start` (CommonMark: <…>, or a run without spaces and with balanced parentheses). */
function destinationEnd(text: string, start: number): number {
  if (text[start] === '<') {
    const close = text.slice(start + 1).search(/[<>\n]/);
    return close !== -1 && text[start + 1 + close] === '>' ? start + close + 2 : start;
  }
  let depth = 0;
  let index = start;
  while (index < text.length) {
    const character = text[index];
    if (character === '\\' && index + 1 < text.length) {
      index += 2;
      continue;
    }
    if (/[\s\u0000-\u001f\u007f]/.test(character)) break;
    if (character === '(') depth += 1;
    if (character === ')') {
      if (depth === 0) break;
      depth -= 1;
    }
    index += 1;
  }
  return index;
}

function skipLinkSpace(text: string, start: number): number {
  return start + (/^[ \t]*\n?[ \t]*/.exec(text.slice(start))?.[0].length ?? 0);
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
    const end = destinationEnd(text, start);
    const written = text.slice(start, end);
    const destination = written.startsWith('<') && written.endsWith('>') ? written.slice(1, -1) : written;
    if (end > start && !isSafeLinkDestination(destination)) {
      result += text.slice(copied, start) + REPLACEMENT_DESTINATION;
      copied = end;
    }
  }
  result += text.slice(copied);
  return result.replace(AUTOLINK, (autolink, url: string) => (isSafeLinkDestination(url) ? autolink : ''));
}
