import { createHash } from 'node:crypto';
import stringify from 'safe-stable-stringify';

/**
 * A digest of a parsed request body that ignores what JSON leaves open (key order, white space):
 * a retry that serializes the same body differently is still the same request.
 */
export function requestFingerprint(body: unknown): string {
  return createHash('sha256')
    .update(stringify(body ?? null) ?? 'null')
    .digest('hex');
}
