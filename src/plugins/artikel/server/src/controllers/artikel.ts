import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { PostOutcome } from '../services/article-writes';
import { apiTokenActor, commands } from '../commands';
import type { ApiTokenCredentials } from '../commands/actor';
import openApiDocument from '../openapi/openapi.json';
import { getConfig, getService } from '../infrastructure/get-service';
import { revisionEntryRecord, revisionRecord } from '../presenters/revision-records';
import { validateNoBody, validateRevisionPath } from '../validation/revisions';
import { linkHeader, pagingLinks, withSingleParameters } from '../presenters/links';
import { ifNoneMatchHolds } from '../utils/entity-tags';
import {
  validateCreateQuery,
  validateFeedQuery,
  validateArticleQuery,
  validateLatestQuery,
  validateListRequest,
  validateNoParameters,
  validateSitemapFile,
  validateSlug,
} from '../validation/read-queries';
import { FEED_CONTENT_TYPES } from '../services/feeds';
import { API_REFERENCE_PAGE, type ScriptEncoding } from '../services/api-reference';
import { llmsText } from '../presenters/llms-text';
import { openApiDocumentFor } from '../presenters/openapi-document';
import { summariesCsv } from '../presenters/other-representations';

const CSV_TYPE = 'text/csv; charset=utf-8';
const MARKDOWN = 'text/markdown';

// The reference page's script is one Redoc version: kept a week, and revalidated by its ETag after.
const SCRIPT_CACHE_CONTROL = 'public, max-age=604800';

interface Context {
  query: unknown;
  origin: string;
  method: string;
  path: string;
  querystring: string;
  params: Record<string, string>;
  request: { body?: unknown; headers: Record<string, string | string[] | undefined> };
  state: { auth?: { credentials?: ApiTokenCredentials }; articleVersion?: string };
  redirect: (url: string) => void;
  body: unknown;
  status: number;
  set: (header: string, value: string) => void;
  vary: (header: string) => void;
  accepts: (...types: string[]) => string | false;
  acceptsEncodings: (...encodings: string[]) => string | false;
  /** false: koa-compress leaves the body as it is (it is compressed already). */
  compress?: boolean;
}

/** The write's options its headers carry. */
const writeHeaders = (ctx: Context) => ({
  idempotencyKey: ctx.request.headers['idempotency-key'],
  ifMatch: ctx.request.headers['if-match'],
});

/** A write's answer: its status, where the article is, whether it is a replay, its tag, its body. */
function respondWith(ctx: Context, answer: PostOutcome): void {
  ctx.status = answer.status;
  if (answer.location !== null) ctx.set('Location', answer.location);
  if (answer.replayed) ctx.set('Idempotent-Replayed', 'true');
  if (answer.etag !== undefined) ctx.set('ETag', answer.etag);
  ctx.body = answer.body;
}

// The request headers an origin taken from the request is made of (behind a trusted proxy Koa reads the forwarded ones).
const ORIGIN_HEADERS = ['Host', 'X-Forwarded-Host', 'X-Forwarded-Proto'];

/**
 * Where this API is reached, for the links an answer carries: its public address (PUBLIC_URL,
 * required in production) when configured. Otherwise the request's origin, which its client
 * chooses: the answer then says it varies by the headers it came from, so that no shared cache
 * hands one host's links to another, and a Host no URL can hold is a 400 rather than a 500.
 */
function apiBase(strapi: Core.Strapi, ctx: Context): string {
  const configured = strapi.config.get('server.url') as string | undefined;
  if (configured) return configured;
  for (const header of ORIGIN_HEADERS) ctx.vary(header);
  try {
    return new URL(ctx.origin).origin;
  } catch {
    const message = 'The Host header is not a valid host name (and the service has no PUBLIC_URL to build its links on)';
    throw new errors.ValidationError(message, { errors: [{ path: ['headers', 'host'], message, name: 'ValidationError' }] });
  }
}

const artikelController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async find(ctx: Context) {
    const { query, format } = await validateListRequest(ctx.query);
    const list = await getService(strapi, 'article-reads').list(query);
    // Absolute, on the public address when one is configured (PUBLIC_URL), so a client can follow them as they are.
    const links = pagingLinks(new URL(`${ctx.path}${ctx.querystring ? `?${ctx.querystring}` : ''}`, apiBase(strapi, ctx)), list.paging);
    const header = linkHeader(links);
    if (header !== null) ctx.set('Link', header);
    if (format === 'csv') {
      ctx.set('Content-Type', CSV_TYPE);
      ctx.body = summariesCsv(list.data);
      return;
    }
    ctx.body = { data: list.data, meta: list.meta, links };
  },

  async findOne(ctx: Context) {
    const asked = await validateArticleQuery(ctx.query);
    // Markdown for ?format=md, or for a client whose Accept prefers it to JSON; the answer says it varies by Accept.
    ctx.vary('Accept');
    const markdown = asked === 'md' || (asked === null && ctx.accepts('application/json', MARKDOWN) === MARKDOWN);
    const slug = await validateSlug(ctx.params.slug);
    const reads = getService(strapi, 'article-reads');
    let article;
    try {
      // A HEAD (a link checker, an uptime monitor) is answered like a GET but is no reader: no view.
      article = await reads.readBySlug(slug, { countView: ctx.method !== 'HEAD' });
    } catch (error) {
      if (!(error instanceof errors.NotFoundError)) throw error;
      const current = await reads.movedTo(slug);
      if (current === null) throw error;
      // One hop to where the article is now, counting no view. Not kept by caches: the article can
      // move back, or be deleted and free its old slugs.
      ctx.set('Cache-Control', 'public, no-cache');
      ctx.status = 301;
      ctx.redirect(`/api/artikel/${encodeURIComponent(current)}`);
      return;
    }
    if (markdown) {
      ctx.set('Content-Type', `${MARKDOWN}; charset=utf-8`);
      ctx.body = await reads.markdownOf(article);
      return;
    }
    // The tag's version part is what If-Match on PATCH and DELETE compares (see http-caching).
    ctx.state.articleVersion = (await reads.version(article.id)) ?? undefined;
    ctx.body = { data: article };
  },

  async categories(ctx: Context) {
    await validateNoParameters(ctx.query);
    ctx.body = { data: await getService(strapi, 'article-reads').categories() };
  },

  async create(ctx: Context) {
    const { dryRun } = await validateCreateQuery(ctx.query);
    const actor = apiTokenActor(ctx.state.auth?.credentials);
    respondWith(ctx, await commands(strapi).articles.create(actor, ctx.request.body, { ...writeHeaders(ctx), dryRun }));
  },

  /** PATCH: changes an article found by its current slug, whatever its status. */
  async update(ctx: Context) {
    const { dryRun } = await validateCreateQuery(ctx.query);
    const actor = apiTokenActor(ctx.state.auth?.credentials);
    respondWith(ctx, await commands(strapi).articles.update(actor, ctx.params.slug, ctx.request.body, { ...writeHeaders(ctx), dryRun }));
  },

  /** The revisions of an article, newest first (a token that may update). */
  async revisions(ctx: Context) {
    await validateNoParameters(ctx.query);
    const slug = await validateSlug(ctx.params.slug);
    const documentId = await commands(strapi).drafts.documentAt(apiTokenActor(ctx.state.auth?.credentials), slug);
    const entries = await getService(strapi, 'revisions').list(documentId);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = { data: entries.map(revisionEntryRecord), meta: { keep: getConfig(strapi, 'revisionsKeep') } };
  },

  /** One revision: the article as it was, and what that write changed. */
  async revision(ctx: Context) {
    const { slug, number } = await validateRevisionPath(ctx.params.slug, ctx.params.number, ctx.query);
    const documentId = await commands(strapi).drafts.documentAt(apiTokenActor(ctx.state.auth?.credentials), slug);
    const detail = await getService(strapi, 'revisions').detail(documentId, number);
    if (detail === null)
      throw new errors.NotFoundError(`The article has no revision ${number}: GET /api/artikel/${slug}/revisions lists those kept`);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = { data: revisionRecord(detail) };
  },

  /** Gives the article a revision's text again: 200 with the article, like a PATCH. */
  async restoreRevision(ctx: Context) {
    const { dryRun } = await validateCreateQuery(ctx.query);
    validateNoBody(ctx.request.body);
    const actor = apiTokenActor(ctx.state.auth?.credentials);
    const { ifMatch } = writeHeaders(ctx);
    respondWith(ctx, await commands(strapi).articles.restoreRevision(actor, ctx.params.slug, ctx.params.number, { ifMatch, dryRun }));
  },

  /** DELETE: the article and everything of it; 204. */
  async delete(ctx: Context) {
    await validateNoParameters(ctx.query);
    await commands(strapi).articles.remove(apiTokenActor(ctx.state.auth?.credentials), ctx.params.slug, writeHeaders(ctx));
    ctx.status = 204;
    ctx.body = null;
  },

  async preview(ctx: Context) {
    await validateNoParameters(ctx.query);
    const draft = await getService(strapi, 'preview').draftFor(ctx.params.token);
    // A draft is for the one who holds the link: kept out of caches and search engines.
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Robots-Tag', 'noindex');
    ctx.body = { data: draft };
  },

  /** RSS 2.0, Atom or JSON Feed of the newest articles, all or of one category (?kategori=slug). */
  async feed(ctx: Context) {
    const { format, category } = await validateFeedQuery(ctx.params.format, ctx.query);
    const base = apiBase(strapi, ctx);
    const selfUrl = withSingleParameters(new URL(`${ctx.path}${ctx.querystring ? `?${ctx.querystring}` : ''}`, base)).toString();
    const body = await getService(strapi, 'feeds').feed({ format, category, selfUrl, apiBase: base });
    ctx.set('Content-Type', FEED_CONTENT_TYPES[format]);
    ctx.body = body;
  },

  /** The sitemap of every published article with its photos, or past ARTIKEL_SITEMAP_URLS the index of its files. */
  async sitemap(ctx: Context) {
    await validateNoParameters(ctx.query);
    const body = await getService(strapi, 'sitemaps').root(apiBase(strapi, ctx));
    ctx.set('Content-Type', 'application/xml; charset=utf-8');
    ctx.body = body;
  },

  async sitemapFile(ctx: Context) {
    const page = await validateSitemapFile(ctx.params.page, ctx.query);
    const body = await getService(strapi, 'sitemaps').file(page, apiBase(strapi, ctx));
    ctx.set('Content-Type', 'application/xml; charset=utf-8');
    ctx.body = body;
  },

  /** The OpenAPI 3.1 description of these routes, as kept in the repository (openapi/openapi.json), with the configured language in its examples. */
  async openApi(ctx: Context) {
    await validateNoParameters(ctx.query);
    ctx.body = openApiDocumentFor(openApiDocument, getConfig(strapi, 'language'));
  },

  /** The human-readable API reference: Redoc rendering openapi.json, served locally. */
  async apiReference(ctx: Context) {
    await validateNoParameters(ctx.query);
    ctx.set('Content-Type', 'text/html; charset=utf-8');
    ctx.body = API_REFERENCE_PAGE;
  },

  /** Redoc's script for the reference page, compressed once and served from memory. */
  async apiReferenceScript(ctx: Context) {
    await validateNoParameters(ctx.query);
    const encoding = (ctx.acceptsEncodings('br', 'gzip', 'identity') || 'identity') as ScriptEncoding;
    const script = await getService(strapi, 'api-reference').script(encoding);
    ctx.vary('Accept-Encoding');
    ctx.set('Content-Type', 'application/javascript; charset=utf-8');
    ctx.set('Cache-Control', SCRIPT_CACHE_CONTROL);
    ctx.set('ETag', script.etag);
    ctx.compress = false;
    ctx.status = 200;
    if (ifNoneMatchHolds(ctx.request.headers['if-none-match'], script.etag)) {
      ctx.status = 304;
      return;
    }
    if (script.encoding !== 'identity') ctx.set('Content-Encoding', script.encoding);
    ctx.body = script.body;
  },

  async latest(ctx: Context) {
    const format = await validateLatestQuery(ctx.query);
    const data = await getService(strapi, 'article-reads').latest();
    if (format === 'csv') {
      ctx.set('Content-Type', CSV_TYPE);
      ctx.body = summariesCsv(data);
      return;
    }
    ctx.body = { data };
  },

  /** What an agent reads first: the API, its representations and its MCP tools, in Markdown (llmstxt.org). */
  async llmsText(ctx: Context) {
    await validateNoParameters(ctx.query);
    ctx.set('Content-Type', 'text/plain; charset=utf-8');
    ctx.body = llmsText(apiBase(strapi, ctx), getConfig(strapi, 'language'));
  },
});

export default artikelController;
