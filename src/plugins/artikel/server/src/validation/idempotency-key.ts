import { IDEMPOTENCY_KEY_LENGTH } from '../constants';
import { fieldError, validationError } from './validate';

const HEADER = 'Idempotency-Key';
// The contract: 1 to IDEMPOTENCY_KEY_LENGTH printable ASCII characters.
const PRINTABLE_ASCII = new RegExp(`^[\\x20-\\x7e]{1,${IDEMPOTENCY_KEY_LENGTH}}$`);
// draft-ietf-httpapi-idempotency-key-header makes the value a Structured Fields string ("…", with
// \" and \\ escapes); most clients (n8n among them) send it bare. Both are accepted.
const SF_STRING = /^"((?:[^"\\]|\\["\\])*)"$/;

/**
 * The key of a POST that sent the Idempotency-Key header, null without one; an empty, overlong or
 * non-printable key is a 400 naming the header.
 */
export function validateIdempotencyKey(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  const value = Array.isArray(header) ? header.join(', ') : header;
  const quoted = SF_STRING.exec(value);
  const key = quoted === null ? value : quoted[1].replace(/\\(["\\])/g, '$1');
  if (PRINTABLE_ASCII.test(key)) return key;
  const problem =
    key.length === 0
      ? 'must not be empty'
      : key.length > IDEMPOTENCY_KEY_LENGTH
        ? `must be at most ${IDEMPOTENCY_KEY_LENGTH} characters`
        : 'must hold printable ASCII characters only';
  throw validationError([fieldError(HEADER, `The ${HEADER} header ${problem}`)]);
}
