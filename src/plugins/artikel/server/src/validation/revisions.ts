import { yup } from '@strapi/utils';
import { positiveWholeNumber, validateNoParameters, validateSlug } from './read-queries';
import { fieldError, type InferInput, validateInput, validationError } from './validate';

// Revision numbers are stored as 32-bit integers on both stores; a larger one names no revision, and PostgreSQL could not compare it.
const LARGEST_NUMBER = 2_147_483_647;

const revisionPathSchema = yup
  .object({
    number: positiveWholeNumber('number').test(
      'stored-integer',
      `number must be at most ${LARGEST_NUMBER}`,
      (value) => value === undefined || Number(value) <= LARGEST_NUMBER,
    ),
  })
  .noUnknown();

/** A revision's number in the path; no query parameters. The admin's routes name the article by its document id, not its slug. */
export async function validateRevisionNumber(number: string, query: unknown): Promise<number> {
  await validateNoParameters(query);
  const raw = await validateInput<InferInput<typeof revisionPathSchema>>(revisionPathSchema, { number }, 'The path');
  return Number(raw.number);
}

/** The article's slug and a revision's number in the path; no query parameters. */
export async function validateRevisionPath(slug: string, number: string, query: unknown): Promise<{ slug: string; number: number }> {
  const revision = await validateRevisionNumber(number, query);
  return { slug: await validateSlug(slug), number: revision };
}

/** A restore names everything in its path: a body with anything in it is a 400 naming its fields. */
export function validateNoBody(body: unknown): void {
  if (body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0)) return;
  const fields = typeof body === 'object' && !Array.isArray(body) ? Object.keys(body).slice(0, 20) : [];
  const message = 'A restore takes no body (the revision is named in the path): send the request without one';
  throw validationError(
    fields.length === 0 ? [fieldError(null, message)] : fields.map((field) => fieldError(field, `${field} is not taken here. ${message}`)),
  );
}
