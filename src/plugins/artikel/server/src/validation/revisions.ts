import { yup } from '@strapi/utils';
import { positiveWholeNumber, validateNoParameters, validateSlug } from './read-queries';
import { fieldError, type InferInput, validateInput, validateQuery, validationError } from './validate';

// Revision numbers are stored as 32-bit integers on both stores; a larger one names no revision, and PostgreSQL could not compare it.
const LARGEST_NUMBER = 2_147_483_647;

const revisionNumber = (name: string) =>
  positiveWholeNumber(name).test(
    'stored-integer',
    `${name} must be at most ${LARGEST_NUMBER}`,
    (value) => value === undefined || Number(value) <= LARGEST_NUMBER,
  );

const revisionPathSchema = yup.object({ number: revisionNumber('number') }).noUnknown();

// One revision's read: what it changed is told against the revision before it, or against `against`.
const revisionReadSchema = yup.object({ against: revisionNumber('against') }).noUnknown();

/** A revision's number, from the path. */
async function numberInPath(number: string): Promise<number> {
  return Number((await validateInput<InferInput<typeof revisionPathSchema>>(revisionPathSchema, { number }, 'path')).number);
}

/** A revision's number in the path; no query parameters. The admin's routes name the article by its document id, not its slug. */
export async function validateRevisionNumber(number: string, query: unknown): Promise<number> {
  await validateNoParameters(query);
  return numberInPath(number);
}

/**
 * A revision's number in the path, and optionally `against`, the revision its text is compared
 * with (by default the one before it); no other query parameter. The admin's routes name the
 * article by its document id.
 */
export async function validateRevisionRead(number: string, query: unknown): Promise<{ number: number; against: number | null }> {
  const raw = await validateQuery<InferInput<typeof revisionReadSchema>>(revisionReadSchema, query);
  return { number: await numberInPath(number), against: raw.against === undefined ? null : Number(raw.against) };
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
