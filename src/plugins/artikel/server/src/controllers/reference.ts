import type { Core } from '@strapi/strapi';
import openApiDocument from '../openapi/openapi.json';
import { getConfig, getService } from '../infrastructure/get-service';
import { ifNoneMatchHolds } from '../utils/entity-tags';
import { validateNoParameters } from '../validation/read-queries';
import { API_REFERENCE_PAGE, type ScriptEncoding } from '../services/api-reference';
import { llmsText } from '../presenters/llms-text';
import { openApiDocumentFor } from '../presenters/openapi-document';
import { apiBase, type Context } from './http';

// The reference page's script is one Redoc version: kept a week, and revalidated by its ETag after.
const SCRIPT_CACHE_CONTROL = 'public, max-age=604800';

/** The API describing itself: OpenAPI, the reference page and its script, llms.txt. */
const referenceController = ({ strapi }: { strapi: Core.Strapi }) => ({
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

  /** What an agent reads first: the API, its representations and its MCP tools, in Markdown (llmstxt.org). */
  async llmsText(ctx: Context) {
    await validateNoParameters(ctx.query);
    ctx.set('Content-Type', 'text/plain; charset=utf-8');
    ctx.body = llmsText(apiBase(strapi, ctx), getConfig(strapi, 'language'));
  },
});

export default referenceController;
