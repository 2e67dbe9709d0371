import { errors } from '@strapi/utils';
import createError from 'http-errors';

/**
 * A slug asked for explicitly that another document already has. For the admin it is a 400 under
 * the slug field (the Content Manager shows a ValidationError's field errors in the form); POST,
 * whose contract makes it a 409, turns it into slugConflictError.
 */
export class SlugTakenError extends errors.ValidationError {
  constructor(
    readonly slug: string,
    holder: string,
  ) {
    const message = `The slug "${slug}" is already used by another ${holder}`;
    super(message, { errors: [{ path: ['slug'], message, name: 'ValidationError' }] });
  }
}

/**
 * @strapi/utils has no 409 class; an http-errors error is what Strapi's error middleware formats
 * into its own error body, with the name ConflictError.
 */
export function slugConflictError(slug: string): Error {
  const message = `Another article already has the slug "${slug}"`;
  return createError(409, message, { details: { errors: [{ path: ['slug'], message, name: 'ConflictError' }] } });
}
