import type { Core } from '@strapi/strapi';

const memos = new WeakMap<object, Map<string, Promise<unknown>>>();

/**
 * What `find` gives, found once per request under `key` (and on every call outside a request):
 * a list asks the same thing of its words for its count and again for its page. Nothing outlives
 * the request, so no write can make it stale for another.
 */
export function oncePerRequest<Found>(strapi: Core.Strapi, key: string, find: () => Promise<Found>): Promise<Found> {
  const request = strapi.requestContext.get() as object | undefined;
  if (request === undefined) return find();
  const known = memos.get(request) ?? new Map<string, Promise<unknown>>();
  memos.set(request, known);
  const found = (known.get(key) as Promise<Found> | undefined) ?? find();
  known.set(key, found);
  return found;
}
