import { escapeHtmlAttribute as escaped, isLetterOrDigit } from './content';
import { foldCase } from './search-words';
import { stemCores, stemsOf } from './word-stems';

/**
 * A search hit's highlight (contract, "Search and discovery"): HTML-escaped text in which each
 * occurrence of a query word is wrapped in <mark></mark>. Every step is one pass over the text, or
 * one indexOf walk per query word (at most 10 words of at most 100 characters), so the work is
 * linear in the text whatever it holds.
 */

export interface Highlight {
  title: string;
  excerpt: string;
}

/** About this many characters of the content around the densest matches. */
export const EXCERPT_CHARACTERS = 200;
// The start of the content an excerpt is looked for in: the work per hit stays bounded (a 1 MB
// content took 0.2 s of the event loop); words only further in give the summary as the excerpt.
export const EXCERPT_SCAN_CHARACTERS = 100_000;
// Occurrences looked at for the densest window: enough for any page of text; bounds the work on a
// text that repeats a word a million times.
const MAX_OCCURRENCES = 10_000;
const ELLIPSIS = '…';
// Words of a text stemmed to find the forms of the query words (see formsIn): bounds the work on a
// text of many distinct words that could share a stem with a short one.
const MAX_STEMMED_WORDS = 2_000;

/**
 * The text folded as a search folds it (foldCase of the whole text, as the search's own SQL function
 * folds a column), with where each folded code unit came from: `starts[i]` the index in the text of
 * the character folded unit i belongs to, `ends[i]` the index just after it; null where they are
 * the same indexes (the folded text as long as the text: lower-casing never shortens a character,
 * so then no character grew either). Only a text with a character that grows ("İ" to two units)
 * is folded character by character.
 */
function foldedWithOrigins(text: string): { folded: string; starts: number[] | null; ends: number[] | null } {
  const whole = foldCase(text);
  if (whole.length === text.length) return { folded: whole, starts: null, ends: null };
  let folded = '';
  const starts: number[] = [];
  const ends: number[] = [];
  let index = 0;
  for (const character of text) {
    const lower = foldCase(character);
    for (let unit = 0; unit < lower.length; unit += 1) {
      starts.push(index);
      ends.push(index + character.length);
    }
    folded += lower;
    index += character.length;
  }
  return { folded, starts, ends };
}

const isSurrogate = (unit: number, first: number): boolean => unit >= first && unit <= first + 0x3ff;

/** The [start, end) of the word (the run of letters and digits) that holds the unit at `index`; a surrogate pair is read whole. */
function wordAround(text: string, index: number): [number, number] {
  let start = index;
  while (start > 0) {
    const units = isSurrogate(text.charCodeAt(start - 1), 0xdc00) && start >= 2 && isSurrogate(text.charCodeAt(start - 2), 0xd800) ? 2 : 1;
    if (!isLetterOrDigit(text.codePointAt(start - units) ?? 0)) break;
    start -= units;
  }
  let end = index;
  while (end < text.length) {
    const codePoint = text.codePointAt(end) ?? 0;
    if (!isLetterOrDigit(codePoint)) break;
    end += codePoint > 0xffff ? 2 : 1;
  }
  return [start, end];
}

/**
 * Where the text's words that share a stem with a query word are (contract, fourth round: a
 * search finds a word's forms), as [start, end) ranges of the text. Only a word that holds one of
 * the stems' cores can have one (see stemCores): the cores are found by indexOf walks of the
 * folded text (native, one per core, at most 40), their places marked, and one sweep from the
 * start reads the words around the marks, each word once, stemming the first MAX_STEMMED_WORDS of
 * them. So the text is read about once per core, and once by the sweep, whatever it holds.
 */
function formsIn(text: string, folded: string, starts: number[] | null, words: string[]): Array<[number, number]> {
  const stems = new Set(words.flatMap((word) => stemsOf(word)));
  if (stems.size === 0) return [];
  const cores = new Set([...stems].flatMap((stem) => stemCores(stem)).filter((core) => core !== ''));
  const marked = new Uint8Array(text.length);
  let found = false;
  for (const core of cores) {
    // A core's occurrences that overlap lie in one word: the walk steps past each.
    for (let at = folded.indexOf(core); at !== -1; at = folded.indexOf(core, at + core.length)) {
      marked[starts === null ? at : starts[at]] = 1;
      found = true;
    }
  }
  const ranges: Array<[number, number]> = [];
  if (!found) return ranges;
  let stemmed = 0;
  for (let at = marked.indexOf(1); at !== -1 && stemmed < MAX_STEMMED_WORDS;) {
    const [start, end] = wordAround(text, at);
    stemmed += 1;
    if (stemsOf(text.slice(start, end)).some((stem) => stems.has(stem))) ranges.push([start, end]);
    at = marked.indexOf(1, Math.max(end, at + 1));
  }
  return ranges;
}

/**
 * Where the words occur in the text (case folded), and the words sharing their stems, as [start,
 * end) ranges of the text, sorted and merged where they overlap or touch.
 */
export function occurrences(text: string, words: string[]): Array<[number, number]> {
  const { folded, starts, ends } = foldedWithOrigins(text);
  const ranges: Array<[number, number]> = formsIn(text, folded, starts, words);
  for (const word of new Set(words.map(foldCase))) {
    if (word === '') continue;
    for (let at = folded.indexOf(word); at !== -1 && ranges.length < MAX_OCCURRENCES; at = folded.indexOf(word, at + word.length)) {
      ranges.push(starts === null || ends === null ? [at, at + word.length] : [starts[at], ends[at + word.length - 1]]);
    }
  }
  ranges.sort((first, second) => first[0] - second[0] || first[1] - second[1]);
  const merged: Array<[number, number]> = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last !== undefined && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

/** The text escaped, with the given ranges (sorted, apart) wrapped in <mark>. */
function marked(text: string, ranges: Array<[number, number]>): string {
  let html = '';
  let copied = 0;
  for (const [start, end] of ranges) {
    html += `${escaped(text.slice(copied, start))}<mark>${escaped(text.slice(start, end))}</mark>`;
    copied = end;
  }
  return html + escaped(text.slice(copied));
}

/** A text with each occurrence of the words marked, everything else escaped. */
export function markedText(text: string, words: string[]): string {
  return marked(text, occurrences(text, words));
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': ' ' };

/**
 * The text with every span from `open` to the next `close` replaced by a space. One pass: each
 * indexOf starts past the previous span, and an opening without a closing after it ends the work
 * (no later one has a closing either), so the cost is linear whatever the text holds.
 */
function withoutSpans(text: string, open: string, close: string): string {
  let result = '';
  let copied = 0;
  for (;;) {
    const start = text.indexOf(open, copied);
    if (start === -1) break;
    const end = text.indexOf(close, start + open.length);
    if (end === -1) break;
    result += `${text.slice(copied, start)} `;
    copied = end + close.length;
  }
  return result + text.slice(copied);
}

/**
 * The content as a reader sees its words, for an excerpt: HTML tags and Markdown link targets
 * removed (a link's text stays), emphasis and bracket marks, heading and quote marks at line starts
 * removed, the common entities read, white space collapsed. (Cheaper than the rendered plain text
 * of summaries, which renders the Markdown and sanitizes it: a long content needs a thread for that;
 * this is a few linear passes, about 0.05 ms for 3 KB.)
 */
export function excerptText(content: string): string {
  return (
    withoutSpans(withoutSpans(content, '<', '>'), '](', ')')
      .replace(/^[ \t]*[#>]+/gm, ' ')
      .replace(/[*`[\]]+/g, '')
      .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (entity) => ENTITIES[entity] ?? entity)
      // Only the runs that are not already one space: replacing every space took half the work.
      .replace(/(?: \s|[^\S ])\s*/g, ' ')
      .trim()
  );
}

const isSpace = (character: string | undefined): boolean => character === undefined || /\s/.test(character);

/**
 * About EXCERPT_CHARACTERS of the text around its densest matches: the window of that length that
 * holds the most occurrences (two pointers over them), widened to whole words, with an ellipsis
 * where it cuts the text. Null when the words do not occur in it.
 */
function excerptOf(text: string, words: string[]): string | null {
  const ranges = occurrences(text, words);
  if (ranges.length === 0) return null;
  let best = 0;
  let bestCount = 0;
  for (let first = 0, last = 0; first < ranges.length; first += 1) {
    // A window holds its first occurrence at least, however long (overlapping matches merge).
    last = Math.max(last, first + 1);
    while (last < ranges.length && ranges[last][1] - ranges[first][0] <= EXCERPT_CHARACTERS) last += 1;
    if (last - first > bestCount) [best, bestCount] = [first, last - first];
  }
  const matchStart = ranges[best][0];
  // An occurrence longer than the window (a word repeated into one run) is shown in part.
  const matchEnd = Math.min(ranges[best + bestCount - 1][1], matchStart + EXCERPT_CHARACTERS);
  // The matches centred in the window.
  const spare = Math.max(0, EXCERPT_CHARACTERS - (matchEnd - matchStart));
  let start = Math.max(0, matchStart - Math.floor(spare / 2));
  let end = Math.min(text.length, start + Math.max(EXCERPT_CHARACTERS, matchEnd - start));
  start = Math.max(0, Math.min(start, end - EXCERPT_CHARACTERS));
  // Whole words: cut at the nearest white space inside the window (a word longer than it stays cut).
  if (start > 0 && !isSpace(text[start - 1])) {
    const space = text.slice(start, matchStart).search(/\s/);
    if (space !== -1) start += space + 1;
  }
  if (end < text.length && !isSpace(text[end])) {
    const space = text.slice(matchEnd, end).lastIndexOf(' ');
    if (space !== -1) end = matchEnd + space;
  }
  const window = text.slice(start, end).trim();
  const windowStart = start + (text.slice(start, end).length - text.slice(start, end).trimStart().length);
  // The occurrences in the window, cut at its ends.
  const windowEnd = windowStart + window.length;
  const inside = ranges
    .filter(([rangeStart, rangeEnd]) => rangeStart < windowEnd && rangeEnd > windowStart)
    .map(([rangeStart, rangeEnd]): [number, number] => [
      Math.max(rangeStart, windowStart) - windowStart,
      Math.min(rangeEnd, windowEnd) - windowStart,
    ]);
  return `${start > 0 ? ELLIPSIS : ''}${marked(window, inside)}${end < text.length ? ELLIPSIS : ''}`;
}

/**
 * The highlight of an article found by these words: its title marked, and an excerpt of its
 * content around the densest matches, or its summary (marked) when the words occur only in the
 * title or tags (or beyond the content's first EXCERPT_SCAN_CHARACTERS).
 */
export function highlightOf(article: { title: string; content: string; summary: string | null }, words: string[]): Highlight {
  return {
    title: markedText(article.title, words),
    excerpt: excerptOf(excerptText(article.content.slice(0, EXCERPT_SCAN_CHARACTERS)), words) ?? markedText(article.summary ?? '', words),
  };
}
