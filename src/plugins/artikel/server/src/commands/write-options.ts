import type { KeyedRequest } from '../services/idempotency';
import { requestFingerprint } from '../utils/request-fingerprint';
import type { IfMatch } from '../utils/entity-tags';
import { validateIdempotencyKey } from '../validation/idempotency-key';
import { validateIfMatch } from '../validation/if-match';
import { type Actor, idempotencyScope } from './actor';

/** What a write is asked with besides its input, as each path received it (header, tool argument). */
export interface WriteOptions {
  /** The Idempotency-Key as sent (the header's text, or the tool's idempotency_key). */
  idempotencyKey?: string | string[];
  dryRun?: boolean;
  /** If-Match as sent (the header, or the tool's if_match). */
  ifMatch?: string | string[];
}

/** The keyed request of a write (none for a dry run, which stores nothing, or without a key). */
export function keyedWrite(actor: Actor, options: WriteOptions, request: unknown): KeyedRequest | null {
  const key = validateIdempotencyKey(options.idempotencyKey);
  if (key === null || options.dryRun === true) return null;
  return { scope: idempotencyScope(actor), key, fingerprint: requestFingerprint(request) };
}

export const ifMatchOf = (options: WriteOptions): IfMatch | null => validateIfMatch(options.ifMatch);
