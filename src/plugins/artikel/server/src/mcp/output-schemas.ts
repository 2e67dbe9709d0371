import { z } from '@strapi/utils';
import type { ArticleSummary, FullArticle } from '../presenters/article-records';
import type { revisionEntryRecord, revisionRecord } from '../presenters/revision-records';
import type { CategoryWithCount, ListedArticle } from '../services/article-reads';

/**
 * What each tool's structuredContent holds, as JSON Schema in tools/list (issue "Agents": an
 * untyped `data` gave an MCP Inspector 220 warnings and a model nothing to go by). The records are
 * the REST API's (docs/api.md); photos and a revision's stored article are named with their main
 * fields and may carry more (`loose`). The type checks at the end hold each schema to the presenter
 * that fills it, so a field added there fails the build until it is described here.
 */

const text = z.string();
const nullableText = z.string().nullable();
const timestamp = z.string().describe('ISO-8601, UTC');

const photo = z
  .object({
    url: text,
    alt: text,
    caption: text,
    width: z.number().nullable(),
    height: z.number().nullable(),
    mime: nullableText,
    srcset: text,
    placeholder: nullableText.describe('A BlurHash to paint while the photo loads'),
    color: nullableText.describe('The dominant colour, #rrggbb'),
  })
  .loose();

const category = z.object({ name: text, slug: text });

const summaryShape = {
  id: text.describe("The article's document id"),
  title: text,
  slug: text.describe('Its address: /api/artikel/{slug}, and the slug the write tools take'),
  summary: text,
  category: category.nullable(),
  tags: z.array(text),
  cover_image_url: nullableText,
  cover: photo.nullable(),
  author: text,
  views: z.number().int(),
  reading_time: z.number().int().describe('Minutes'),
  published_at: timestamp.nullable(),
  updated_at: timestamp,
};

const articleSummary = z.object(summaryShape);
const listedArticle = z.object({
  ...summaryShape,
  highlight: z.object({ title: text, excerpt: text }).optional().describe('With q: HTML-escaped title and excerpt, each match in <mark>'),
});

const fullArticle = z.object({
  ...summaryShape,
  content: text,
  content_html: text,
  gallery: z.array(photo),
  meta_title: text,
  meta_description: text,
  meta_keywords: nullableText,
  related: z.array(articleSummary),
  status: z.enum(['published', 'draft', 'scheduled']),
  publish_at: timestamp.nullable().describe('While scheduled: when it goes live'),
  created_at: timestamp,
  json_ld: text.describe('schema.org BlogPosting, as JSON text'),
});

const categoryWithCount = z.object({ name: text, slug: text, article_count: z.number().int() });

const revisionEntry = z.object({
  number: z.number().int(),
  action: text,
  created_at: timestamp,
  actor: z.object({ kind: text, name: nullableText }).loose(),
  restored_from: z.number().int().nullable(),
  changed: z.array(text).describe('The fields this write changed'),
});
const revisionDetail = revisionEntry.extend({
  article: z.object({ title: text, slug: text, summary: text, content: text }).loose(),
  text_changes: z.array(z.object({ field: text }).loose()),
});

const writeMeta = z
  .object({
    etag: text.optional().describe('Pass it as if_match to the next write of this article'),
    idempotent_replayed: z.boolean().optional(),
    dry_run: z.boolean().optional(),
  })
  .loose();

const listMeta = z
  .object({
    pagination: z.object({
      page: z.number().int(),
      limit: z.number().int(),
      total: z.number().int(),
      total_exact: z.boolean(),
      page_count: z.number().int(),
    }),
    next_cursor: nullableText.describe('The next page: pass it as cursor with the same arguments; null on the last page'),
    next_page: z.number().int().nullable().optional(),
    suggestion: nullableText.optional().describe('With q and no match: the words that would find articles'),
  })
  .loose();

/** Each tool's output schema, by tool. */
export const TOOL_OUTPUTS = {
  artikel_search: () => z.object({ data: z.array(listedArticle), meta: listMeta }),
  artikel_get: () => z.object({ data: fullArticle, meta: writeMeta.optional() }),
  artikel_categories: () => z.object({ data: z.array(categoryWithCount) }),
  artikel_latest: () => z.object({ data: z.array(articleSummary) }),
  artikel_create: () => z.object({ data: fullArticle, meta: writeMeta.optional() }),
  artikel_update: () => z.object({ data: fullArticle, meta: writeMeta.optional() }),
  artikel_revisions: () => z.object({ data: z.union([z.array(revisionEntry), revisionDetail]) }),
  artikel_restore: () => z.object({ data: fullArticle, meta: writeMeta.optional() }),
  artikel_delete: () => z.object({ data: z.object({ slug: text, deleted: z.literal(true) }) }),
} as const;

// The presenters' records fit their schemas: a field added to one, or a type changed, fails here.
type Fits<Record, Schema extends z.ZodType> = [Exclude<keyof Record, keyof z.infer<Schema>>] extends [never]
  ? Record extends z.infer<Schema>
    ? true
    : never
  : never;
const fits = <T extends true>(): T => true as T;
fits<Fits<ArticleSummary, typeof articleSummary>>();
fits<Fits<ListedArticle, typeof listedArticle>>();
fits<Fits<FullArticle, typeof fullArticle>>();
fits<Fits<CategoryWithCount, typeof categoryWithCount>>();
fits<Fits<ReturnType<typeof revisionEntryRecord>, typeof revisionEntry>>();
fits<Fits<ReturnType<typeof revisionRecord>, typeof revisionDetail>>();
