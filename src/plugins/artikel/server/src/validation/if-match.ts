import { type IfMatch, parseIfMatch } from '../utils/entity-tags';
import { fieldError, validationError } from './validate';

const HEADER = 'If-Match';

/** The If-Match of a PATCH or DELETE, null without one; one that is not `*` or a list of quoted tags is a 400 naming the header. */
export function validateIfMatch(header: string | string[] | undefined): IfMatch | null {
  if (header === undefined) return null;
  const parsed = parseIfMatch(Array.isArray(header) ? header.join(', ') : header);
  if (parsed !== null) return parsed;
  throw validationError([
    fieldError(HEADER, `The ${HEADER} header must be * or a list of quoted entity tags, such as the ETag the article's GET gave ("…")`),
  ]);
}
