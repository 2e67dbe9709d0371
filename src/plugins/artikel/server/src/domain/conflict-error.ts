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
    /** The deleted article in the trash that holds the slug, when that is who has it. */
    readonly trashedDocumentId: string | null = null,
  ) {
    const message = slugTakenMessage(slug, holder, trashedDocumentId);
    super(message, { errors: [{ path: ['slug'], message, name: 'ValidationError' }] });
  }
}

/** Who has the slug, and for one in the trash how to get it back or free it. */
function slugTakenMessage(slug: string, holder: string, trashedDocumentId: string | null): string {
  if (trashedDocumentId === null) return `The slug "${slug}" is already used by another ${holder}`;
  return (
    `The slug "${slug}" belongs to a deleted article waiting in the trash (document id ${trashedDocumentId}): ` +
    `restore it in the admin's trash (Artikel → Tempat sampah, or POST /admin/artikel/trash/${trashedDocumentId}/restore), ` +
    'purge it there to free the slug, or choose another slug'
  );
}

/**
 * @strapi/utils has no 409 class; an http-errors error is what Strapi's error middleware formats
 * into its own error body, with the name ConflictError.
 */
export function slugConflictError(slug: string, trashedDocumentId: string | null = null): Error {
  const message =
    trashedDocumentId === null ? `Another article already has the slug "${slug}"` : slugTakenMessage(slug, 'article', trashedDocumentId);
  return createError(409, message, { details: { errors: [{ path: ['slug'], message, name: 'ConflictError' }] } });
}
