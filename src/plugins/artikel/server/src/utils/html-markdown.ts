import TurndownService from 'turndown';
import { tables } from '@joplin/turndown-plugin-gfm';
import { containsHtml } from './content';

let turndown: TurndownService | null = null;

/**
 * HTML content as Markdown (turndown, with ATX headings and fenced code, and GitHub's tables:
 * a table's cells would otherwise come out as loose paragraphs); Markdown content as it is.
 */
export function contentAsMarkdown(content: string): string {
  if (!containsHtml(content)) return content;
  if (turndown === null) {
    turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
    turndown.use(tables);
  }
  return turndown.turndown(content);
}
