import type { FullArticle, ArticleSummary } from '../presenters/article-records';

type ToolResult =
  | { content: Array<{ type: 'text'; text: string }>; structuredContent: Record<string, unknown> }
  | {
      content: Array<{ type: 'text'; text: string }>;
      isError: true;
    };

/** A short readable form of an article for the model: Markdown, with what a next call needs (slug, status, etag). */
export function articleText(article: FullArticle, etag: string | null = null): string {
  const facts = [
    `status: ${article.status}`,
    `slug: ${article.slug}`,
    etag === null ? null : `etag: ${etag} (pass it as if_match to artikel_update or artikel_delete)`,
    `views: ${article.views}`,
    article.category ? `category: ${article.category.name}` : null,
    article.tags.length > 0 ? `tags: ${article.tags.join(', ')}` : null,
    article.published_at ? `published_at: ${article.published_at}` : null,
    article.publish_at ? `publish_at: ${article.publish_at}` : null,
  ].filter((line): line is string => line !== null);
  return `# ${article.title}\n\n${facts.map((line) => `- ${line}`).join('\n')}\n\n${article.summary}\n\n${article.content}`;
}

/** A list, one line an article. */
export function summariesText(articles: ArticleSummary[], total?: number, exact = true): string {
  if (articles.length === 0) return 'No article.';
  const lines = articles.map(
    (article) =>
      `- ${article.title} (slug: ${article.slug}, published_at: ${article.published_at ?? 'not published'}, views: ${article.views})`,
  );
  const inAll = total === undefined ? '' : `${exact ? total : `More than ${total}`} articles in all; this page:\n`;
  return `${inAll}${lines.join('\n')}`;
}

export const success = (structuredContent: Record<string, unknown>, text: string): ToolResult => ({
  content: [{ type: 'text', text }],
  structuredContent,
});

/** A refusal: the REST answer's message, which names every refused field. */
export const refusal = (message: string): ToolResult => ({ content: [{ type: 'text', text: message }], isError: true });
