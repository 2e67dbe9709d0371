/**
 * A request's path as Strapi's router matches it, for rules that must hold on every spelling that
 * reaches a route: the router ignores case (/API/users is /api/users) and a trailing slash, and
 * this also folds an encoded slash (%2F) and runs of slashes, which some proxies pass on as they
 * are. Over-folding only makes such a rule apply more often. Linear in the path's length.
 */
export function routePath(path: string): string {
  const folded = path
    .replace(/%2f/gi, '/')
    .replace(/\/{2,}/g, '/')
    .toLowerCase();
  return folded.length > 1 && folded.endsWith('/') ? folded.slice(0, -1) : folded;
}

const STUDIO_API = /^\/api\/artikel(\/|$)/;

/** Whether a request's path (as routePath folds it) is under the studio's API, /api/artikel. */
export const isStudioApiPath = (folded: string): boolean => STUDIO_API.test(folded);
