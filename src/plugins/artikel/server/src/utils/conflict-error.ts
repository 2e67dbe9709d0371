import createError from 'http-errors';

/**
 * @strapi/utils has no 409 class; an http-errors error is what Strapi's error middleware formats
 * into its own error body, with the name ConflictError.
 */
export function slugConflictError(slug: string): Error {
  const message = `Another article already has the slug "${slug}"`;
  return createError(409, message, { details: { errors: [{ path: ['slug'], message, name: 'ConflictError' }] } });
}
