import createError from 'http-errors';

/**
 * @strapi/utils has no 409 class; an http-errors error is what Strapi's error middleware formats
 * into its own error body, with the name ConflictError.
 */
export function conflictError(message: string, path: string): Error {
  return createError(409, message, { details: { errors: [{ path: [path], message, name: 'ConflictError' }] } });
}
