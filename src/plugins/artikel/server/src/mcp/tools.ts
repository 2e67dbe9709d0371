import type { Core } from '@strapi/strapi';
import { z } from '@strapi/utils';
import { ARTICLE_UID } from '../constants';
import { getService } from '../infrastructure/get-service';
import { adminActor, commands } from '../commands';
import type { FullArticle } from '../presenters/article-records';
import type { PostOutcome } from '../services/article-writes';
import { createArticleSchema } from '../validation/create-article';
import { listQuerySchema, validateListQuery, validateSlug } from '../validation/read-queries';
import { updateArticleSchema } from '../validation/update-article';
import { asQuery, inputShapeOf, toolInput, wholeNumber } from './input-schemas';
import { TOOL_OUTPUTS } from './output-schemas';
import type { ToolAnnotations } from './register-tools';
import { LIST_MAX_LIMIT } from '../constants';
import { articleText, refusal, success, summariesText } from './tool-results';
import { revisionEntryRecord, revisionRecord } from '../presenters/revision-records';
import { validateRevisionPath } from '../validation/revisions';

const CM = 'plugin::content-manager.explorer';
const can = (action: 'read' | 'create' | 'update' | 'delete' | 'publish') => ({ action: `${CM}.${action}`, subject: ARTICLE_UID });

/** What Strapi's MCP server gives each tool: the admin token's ability (its owner's role, conditions included) and owner. */
interface ToolContext {
  userAbility: unknown;
  user: { id: string | number };
}

/**
 * The most a write tool's arguments may weigh, as JSON: the REST API's request body limit by default
 * (1 MB). Strapi's MCP endpoint reads bodies up to 4 MB, so a larger article reaches the tool and is
 * refused here as a tool error, which the agent can act on, not as an HTTP 413 its client throws.
 */
const ARGUMENTS_LIMIT_BYTES = 1024 * 1024;

/** A tool error for arguments over the limit; null when they are within it. */
function oversized(args: Args): Result | null {
  const bytes = Buffer.byteLength(JSON.stringify(args));
  if (bytes <= ARGUMENTS_LIMIT_BYTES) return null;
  const megabytes = (bytes / 1024 / 1024).toFixed(1);
  return refusal(
    `The arguments are ${megabytes} MB; a tool call may carry at most 1 MB, as a REST request may: shorten the content (or link to longer material)`,
  );
}

/** The agent behind an admin token, as the commands' actor. */
const agent = (context: ToolContext) => adminActor(context.userAbility, context.user, 'mcp');

const textOrNothing = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A tool's idempotency_key and dry_run as a command's options (a key that is not text is refused as the header would be). */
const writeOptions = (key: unknown, dryRun: unknown) => ({
  idempotencyKey: key === undefined ? undefined : typeof key === 'string' ? key : '',
  dryRun: dryRun === true,
});
type Args = Record<string, unknown>;
type Result = ReturnType<typeof success> | ReturnType<typeof refusal>;

const FIELD_HELP: Record<string, string> = {
  title: 'The headline (at most 255 characters).',
  category: 'A category name or slug; a new name creates the category.',
  content: 'Markdown or HTML; scripts and unsafe links are removed.',
  summary: 'Two or three sentences; left out, written from the content.',
  slug: 'The address /api/artikel/{slug}; left out, made from the title.',
  tags: 'Comma-separated, at most 20 tags of 50 characters.',
  cover_image_url: 'An absolute https URL of a cover photo hosted elsewhere.',
  author: "Left out, the studio's name.",
  status: 'published (default on create), draft, or scheduled (with publish_at).',
  publish_at: 'With status scheduled: when it goes live, ISO-8601 with a time zone, in the future.',
  meta_title: 'SEO title; left out, the title.',
  meta_description: 'SEO description (at most 500 characters); left out, the summary.',
  meta_keywords: 'SEO keywords, comma-separated.',
  q: 'Words that must all occur (any case) in the title, content or tags.',
  kategori: 'A category name or slug.',
  tag: 'One whole tag.',
  limit: 'Articles per page, 1 to 50 (default 10).',
  page: 'The page, from 1. To walk every article, pass cursor instead: pages shift while articles are published.',
  cursor:
    "The previous result's meta.next_cursor: the next page of the same search (same q, kategori, tag and limit), never skipping or repeating an article. Empty: the first page.",
};

const WRITE_OPTIONS = {
  idempotency_key: z
    .string({ error: 'idempotency_key must be a string' })
    .optional()
    .describe(
      'Any 1-255 printable characters from your data (e.g. the source row id): a retry with the same key and input changes nothing and gets the first answer again.',
    ),
  dry_run: z
    .boolean({ error: 'dry_run must be true or false' })
    .optional()
    .describe('true: check everything and answer with the article as it would be stored, storing nothing.'),
};
const IF_MATCH = {
  if_match: z
    .string({ error: 'if_match must be a string' })
    .optional()
    .describe('The ETag (or the etag field of an earlier answer) of the version you read: refused when the article changed since.'),
};
const SLUG = {
  slug: z
    .string({ error: (issue) => (issue.input === undefined ? "slug is required: the article's current slug" : 'slug must be a string') })
    .describe("The article's current slug."),
};

/** A refusal whoever raised it: the REST error's message (a ValidationError's names every field). */
function refused(error: unknown): Result {
  const message = error instanceof Error ? error.message : String(error);
  return refusal(message);
}

/** The answer of a write, as the REST route gives it: data (with the ETag as meta.etag) and meta. */
function writeResult(outcome: PostOutcome, verb: string): Result {
  const body = outcome.body as { data: FullArticle; meta?: Record<string, unknown> };
  const meta = {
    ...(body.meta ?? {}),
    ...(outcome.etag ? { etag: outcome.etag } : {}),
    ...(outcome.replayed ? { idempotent_replayed: true } : {}),
  };
  const heading = body.meta?.dry_run
    ? `Dry run, nothing stored: the article would be ${verb}.`
    : `Article ${verb}${outcome.replayed ? ' (replayed: the first answer to this idempotency_key)' : ''}.`;
  return success(
    { data: body.data, ...(Object.keys(meta).length > 0 ? { meta } : {}) },
    `${heading}\n\n${articleText(body.data, outcome.etag ?? null)}`,
  );
}

// Revision numbers are stored as 32-bit integers (validation/revisions.ts).
const REVISION = () => wholeNumber('number', 1, 2_147_483_647).describe('A revision number, as artikel_revisions lists them.');
const REVISION_NUMBER = (required: boolean) => ({ number: required ? REVISION() : REVISION().optional() });

/** The list's numbers, bounded as the REST route bounds them. */
const SEARCH_NUMBERS = {
  limit: wholeNumber('limit', 1, LIST_MAX_LIMIT),
  page: wholeNumber('page', 1, Number.MAX_SAFE_INTEGER),
};

const NEW_SLUG = z
  .string({ error: 'new_slug must be a string' })
  .optional()
  .describe(
    'Moves the article to this slug (lower-case letters, digits and hyphens): /api/artikel/{new_slug} from then on; the old slug answers 301 to it, and no other article may take it.',
  );

/** Revisions, one line each: number, action, when, who, what changed. */
function revisionsText(entries: Array<ReturnType<typeof revisionEntryRecord>>): string {
  if (entries.length === 0) return 'No revision kept.';
  return entries
    .map((entry) => {
      const who = entry.actor.name ?? entry.actor.kind;
      return `- #${entry.number} ${entry.action} at ${entry.created_at} by ${who} (${entry.actor.kind}); changed: ${entry.changed.join(', ') || 'nothing'}`;
    })
    .join('\n');
}

/** The studio's article tools, on Strapi's own MCP server (POST /mcp, admin tokens). */
export function artikelTools(strapi: Core.Strapi) {
  const reads = () => getService(strapi, 'article-reads');
  const run = () => commands(strapi);

  const guarded = (run: () => Promise<Result>): Promise<Result> => run().catch(refused);

  return [
    {
      name: 'artikel_search',
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as ToolAnnotations,
      title: 'Search articles',
      description:
        "Published articles, newest first, with the REST list's filters: words (q), category (kategori), tag, limit and page. meta.next_cursor (null on the last page), passed back as cursor, gives the next page. Read-only.",
      auth: { policies: [can('read')] as [ReturnType<typeof can>] },
      resolveInputSchema: () =>
        toolInput('artikel_search', inputShapeOf(listQuerySchema, FIELD_HELP, { numbers: SEARCH_NUMBERS, omit: ['format'] })),
      resolveOutputSchema: TOOL_OUTPUTS.artikel_search,
      createHandler:
        () =>
        async ({ args }: { args: Args }) =>
          guarded(async () => {
            const query = await validateListQuery(asQuery(args));
            const list = await reads().list(query);
            const { next } = list.paging;
            const nextCursor = next !== null && 'cursor' in next ? next.cursor : null;
            // Relevance and views page by number (see article-reads' rankedPage).
            const nextPage = query.sort === 'newest' ? undefined : next !== null && 'page' in next ? next.page : null;
            // What the next call needs is in the text too: a host may pass only the text to the model.
            const onward =
              nextCursor !== null
                ? `Next page: call artikel_search again with the same arguments and cursor "${nextCursor}".`
                : typeof nextPage === 'number'
                  ? `Next page: call artikel_search again with the same arguments and page ${nextPage}.`
                  : 'This is the last page.';
            return success(
              {
                data: list.data,
                meta: { ...list.meta, next_cursor: nextCursor, ...(nextPage === undefined ? {} : { next_page: nextPage }) },
              },
              [
                summariesText(list.data, list.meta.pagination.total, list.meta.pagination.total_exact),
                list.meta.suggestion ? `Did you mean: ${list.meta.suggestion}` : null,
                onward,
              ]
                .filter((line): line is string => line !== null)
                .join('\n'),
            );
          }),
    },
    {
      name: 'artikel_get',
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as ToolAnnotations,
      title: 'Get one article',
      description:
        'One article by its current slug, whatever its status (draft and scheduled included), with its ETag in meta.etag. Counts no view. Read-only.',
      auth: { policies: [can('read')] as [ReturnType<typeof can>] },
      resolveInputSchema: () => toolInput('artikel_get', SLUG),
      resolveOutputSchema: TOOL_OUTPUTS.artikel_get,
      createHandler:
        (_strapi: Core.Strapi, context: ToolContext) =>
        async ({ args }: { args: Args }) =>
          guarded(async () => {
            const slug = await validateSlug(String(args.slug ?? ''));
            const { article, etag } = await run().drafts.bySlug(agent(context), slug);
            return success({ data: article, ...(etag ? { meta: { etag } } : {}) }, articleText(article, etag));
          }),
    },
    {
      name: 'artikel_categories',
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as ToolAnnotations,
      title: 'List categories',
      description: 'Every category with its number of published articles, by name. Read-only.',
      auth: { policies: [can('read')] as [ReturnType<typeof can>] },
      resolveInputSchema: () => toolInput('artikel_categories', {}),
      resolveOutputSchema: TOOL_OUTPUTS.artikel_categories,
      createHandler: () => async () =>
        guarded(async () => {
          const data = await reads().categories();
          return success(
            { data },
            data.map((category) => `- ${category.name} (${category.slug}): ${category.article_count}`).join('\n') || 'No category.',
          );
        }),
    },
    {
      name: 'artikel_latest',
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as ToolAnnotations,
      title: 'Latest articles',
      description: 'The 5 newest published articles. Read-only.',
      auth: { policies: [can('read')] as [ReturnType<typeof can>] },
      resolveInputSchema: () => toolInput('artikel_latest', {}),
      resolveOutputSchema: TOOL_OUTPUTS.artikel_latest,
      createHandler: () => async () =>
        guarded(async () => {
          const data = await reads().latest();
          return success({ data }, summariesText(data));
        }),
    },
    {
      name: 'artikel_create',
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as ToolAnnotations,
      title: 'Create an article',
      description:
        'Creates an article exactly as POST /api/artikel does (same fields, rules and defaults): published unless status says draft or scheduled. Use idempotency_key for retries and dry_run to check first.',
      auth: { policies: [can('create')] as [ReturnType<typeof can>] },
      resolveInputSchema: () => toolInput('artikel_create', { ...inputShapeOf(createArticleSchema, FIELD_HELP), ...WRITE_OPTIONS }),
      resolveOutputSchema: TOOL_OUTPUTS.artikel_create,
      createHandler:
        (_strapi: Core.Strapi, context: ToolContext) =>
        async ({ args }: { args: Args }) =>
          guarded(async () => {
            const tooLarge = oversized(args);
            if (tooLarge !== null) return tooLarge;
            const { idempotency_key: key, dry_run: dryRun, ...body } = args;
            const outcome = await run().articles.create(agent(context), body, writeOptions(key, dryRun));
            return writeResult(outcome, 'created');
          }),
    },
    {
      name: 'artikel_update',
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as ToolAnnotations,
      title: 'Change an article',
      description:
        'Changes the article at slug exactly as PATCH /api/artikel/{slug} does: only the fields sent; "" clears an optional one; status draft unpublishes, published publishes, scheduled (with publish_at) schedules; new_slug moves it (the old slug then redirects). if_match (the etag artikel_get gave) guards against overwriting a newer version.',
      auth: { policies: [can('update')] as [ReturnType<typeof can>] },
      resolveInputSchema: () =>
        toolInput('artikel_update', {
          ...SLUG,
          ...inputShapeOf(updateArticleSchema, FIELD_HELP, { omit: ['slug'] }),
          new_slug: NEW_SLUG,
          ...WRITE_OPTIONS,
          ...IF_MATCH,
        }),
      resolveOutputSchema: TOOL_OUTPUTS.artikel_update,
      createHandler:
        (_strapi: Core.Strapi, context: ToolContext) =>
        async ({ args }: { args: Args }) =>
          guarded(async () => {
            const tooLarge = oversized(args);
            if (tooLarge !== null) return tooLarge;
            const { slug, new_slug: newSlug, idempotency_key: key, dry_run: dryRun, if_match: ifMatch, ...fields } = args;
            const body = newSlug === undefined ? fields : { ...fields, slug: newSlug };
            const options = { ...writeOptions(key, dryRun), ifMatch: textOrNothing(ifMatch) };
            return writeResult(await run().articles.update(agent(context), String(slug ?? ''), body, options), 'changed');
          }),
    },
    {
      name: 'artikel_revisions',
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as ToolAnnotations,
      title: "An article's revisions",
      description:
        'The kept versions of the article at a slug, newest first, as GET /api/artikel/{slug}/revisions gives them: number, when, who (an editor, an API token, an agent, the scheduler), and which fields each write changed. With number: that version whole, and what it changed in the title, summary and content word by word. Read-only.',
      // As in the admin's Revisions panel (the same admin permissions): whoever may read the article sees its history.
      auth: { policies: [can('read')] as [ReturnType<typeof can>] },
      resolveInputSchema: () => toolInput('artikel_revisions', { ...SLUG, ...REVISION_NUMBER(false) }),
      resolveOutputSchema: TOOL_OUTPUTS.artikel_revisions,
      createHandler:
        (_strapi: Core.Strapi, context: ToolContext) =>
        async ({ args }: { args: Args }) =>
          guarded(async () => {
            const slug = await validateSlug(String(args.slug ?? ''));
            const documentId = await run().drafts.documentAt(agent(context), slug);
            if (args.number === undefined) {
              const entries = (await getService(strapi, 'revisions').list(documentId)).map(revisionEntryRecord);
              return success({ data: entries }, revisionsText(entries));
            }
            const { number } = await validateRevisionPath(slug, String(args.number), {});
            const detail = await getService(strapi, 'revisions').detail(documentId, number);
            if (detail === null || 'missing' in detail)
              return refusal(`The article has no revision ${number}: call artikel_revisions without number for those kept`);
            const record = revisionRecord(detail);
            return success({ data: record }, revisionsText([record]));
          }),
    },
    {
      name: 'artikel_restore',
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as ToolAnnotations,
      title: "Restore an article's revision",
      description:
        'Gives the article at a slug the text of one of its revisions again (fields, category, photos; not its slug, status or schedule), as POST /api/artikel/{slug}/revisions/{number}/restore does; a published article stays published. The restore is itself a new revision, so it can be undone the same way.',
      auth: { policies: [can('update')] as [ReturnType<typeof can>] },
      resolveInputSchema: () =>
        toolInput('artikel_restore', { ...SLUG, ...REVISION_NUMBER(true), dry_run: WRITE_OPTIONS.dry_run, ...IF_MATCH }),
      resolveOutputSchema: TOOL_OUTPUTS.artikel_restore,
      createHandler:
        (_strapi: Core.Strapi, context: ToolContext) =>
        async ({ args }: { args: Args }) =>
          guarded(async () => {
            const options = { dryRun: args.dry_run === true, ifMatch: textOrNothing(args.if_match) };
            const outcome = await run().articles.restoreRevision(
              agent(context),
              String(args.slug ?? ''),
              String(args.number ?? ''),
              options,
            );
            return writeResult(outcome, 'restored');
          }),
    },
    {
      name: 'artikel_delete',
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false } as ToolAnnotations,
      title: 'Delete an article',
      description:
        'Deletes the article at a slug as DELETE /api/artikel/{slug} does: it leaves every public read at once and waits in the trash (30 days by default) with its views, old slugs and revisions, where an editor can restore it in the admin; then it is purged for good.',
      auth: { policies: [can('delete')] as [ReturnType<typeof can>] },
      resolveInputSchema: () => toolInput('artikel_delete', { ...SLUG, ...IF_MATCH }),
      resolveOutputSchema: TOOL_OUTPUTS.artikel_delete,
      createHandler:
        (_strapi: Core.Strapi, context: ToolContext) =>
        async ({ args }: { args: Args }) =>
          guarded(async () => {
            const { slug } = await run().articles.remove(agent(context), String(args.slug ?? ''), {
              ifMatch: textOrNothing(args.if_match),
            });
            return success({ data: { slug, deleted: true } }, `Moved the article "${slug}" to the trash.`);
          }),
    },
  ];
}
