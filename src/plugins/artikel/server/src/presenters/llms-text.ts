import { englishLanguageName } from '../utils/language-tag';

/**
 * /api/artikel/llms.txt: what an agent should know before it calls the API (the llms.txt
 * convention: a Markdown file at a known address), with the service's own links.
 */
export function llmsText(apiBase: string, language: string): string {
  const api = new URL('/api/artikel', apiBase).toString();
  const mcp = new URL('/mcp', apiBase).toString();
  return `# Studio article API

> The articles of a photography studio (written in ${englishLanguageName(language)} (${language})), served at ${api}. Reading needs
> no credential; writing needs a Strapi API token (REST) or a Strapi admin token (MCP).

## Reading
- [Newest articles](${api}?limit=10): JSON list; filters q (words), kategori, tag; limit (at most 50) and page; links.next for the next page. Add format=csv for CSV.
- [One article](${api}/{slug}): the full record; Accept: text/markdown or ?format=md gives Markdown. An old slug answers 301 to the current one.
- [Categories](${api}/categories), [latest five](${api}/latest) (format=csv too), feeds at ${api}/feed/rss, /feed/atom and /feed/json.

## Writing (REST, Authorization: Bearer <API token>)
- POST ${api}: title, category, content required; optional summary, slug, tags (comma-separated), cover_image_url (https), author, status (published, draft or scheduled with publish_at), meta_title, meta_description, meta_keywords. Send Idempotency-Key (from your data) to make retries safe; ?dry_run=true checks without storing.
- PATCH ${api}/{slug}: any of those fields; "" clears an optional one; If-Match with the ETag you read refuses to overwrite a newer version (412).
- DELETE ${api}/{slug}.
- Revisions (a token that may update): GET ${api}/{slug}/revisions lists every kept version, newest first (who, when, which fields changed); GET ${api}/{slug}/revisions/{number} gives one whole with its word changes; POST ${api}/{slug}/revisions/{number}/restore (no body; If-Match and ?dry_run=true as on PATCH) gives the article that version's text, category and photos again, keeping its slug and status.
- Errors are JSON: error.message names every refused field; 4xx means fix the request, 429 means wait Retry-After seconds.

## MCP tools (Streamable HTTP at ${mcp}, Authorization: Bearer <admin token>)
- artikel_search, artikel_get, artikel_categories, artikel_latest: read (artikel_get also drafts, and counts no view).
- artikel_create, artikel_update, artikel_delete: write, with idempotency_key, dry_run and if_match as on REST.
- artikel_revisions (slug, optional number): an article's revisions, or one whole; artikel_restore (slug, number, dry_run, if_match): restores one. Both need the Content Manager's Update permission.

## Reference
- [OpenAPI 3.1 document](${api}/openapi.json)
- [Readable API reference](${api}/docs.html)
`;
}
