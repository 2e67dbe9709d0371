/**
 * What the content API's controllers share: the request context they read, the headers a write's
 * options come in, how a command's outcome becomes an answer, and the address links are built on.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { PostOutcome } from '../services/article-writes';
import type { ApiTokenCredentials } from '../commands/actor';

export interface Context {
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
export const writeHeaders = (ctx: Context) => ({
  idempotencyKey: ctx.request.headers['idempotency-key'],
  ifMatch: ctx.request.headers['if-match'],
});

/** A write's answer: its status, where the article is, whether it is a replay, its tag, its body. */
export function respondWith(ctx: Context, answer: PostOutcome): void {
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
export function apiBase(strapi: Core.Strapi, ctx: Context): string {
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
