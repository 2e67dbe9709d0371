import TurndownService from 'turndown';
import { containsHtml } from './content';

let turndown: TurndownService | null = null;

/** HTML content as Markdown (turndown, with ATX headings and fenced code); Markdown content as it is. */
export function contentAsMarkdown(content: string): string {
  if (!containsHtml(content)) return content;
  turndown ??= new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  return turndown.turndown(content);
}
