import { readingTimeMinutes, renderContentHtml, sanitizeStoredContent, summarize } from '../utils/content';
import { contentAsMarkdown } from '../utils/html-markdown';

/**
 * The text work an article's content may need, by name: pure functions of utils/, which take about
 * a second together for the largest allowed content. The pool (text-work.ts) runs them here, on a
 * thread of their own; a small text runs them on the caller's thread, from this same table.
 */
export const TEXT_WORK = {
  sanitizeStoredContent,
  summarize,
  renderContentHtml,
  readingTimeMinutes,
  contentAsMarkdown,
} as const;

export type TextWorkKind = keyof typeof TEXT_WORK;

/** What each kind of work gives: text, or a number (minutes to read). */
export type TextWorkResult<K extends TextWorkKind> = ReturnType<(typeof TEXT_WORK)[K]>;

export interface TextTask<K extends TextWorkKind = TextWorkKind> {
  kind: K;
  text: string;
}

export function runTextTask<K extends TextWorkKind>({ kind, text }: TextTask<K>): TextWorkResult<K> {
  const work = TEXT_WORK[kind] as (input: string) => TextWorkResult<K>;
  return work(text);
}

// The pool's thread calls the file's default export with each task; it throws what the work
// throws, which the pool passes to the caller.
export default runTextTask;
