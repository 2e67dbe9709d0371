import { createHash } from 'node:crypto';
import { configure } from 'safe-stable-stringify';

// Deeper than any body the API takes (its fields are strings): a body nested deeper is written
// with its deep parts elided instead of recursed into, so a 1 MB "[[[[…" cannot overflow the stack
// before validation refuses it with a 400.
const MAX_DEPTH = 16;
const stringify = configure({ maximumDepth: MAX_DEPTH });

/**
 * A digest of a parsed request body that ignores what JSON leaves open (key order, white space):
 * a retry that serializes the same body differently is still the same request.
 */
export function requestFingerprint(body: unknown): string {
  return createHash('sha256')
    .update(stringify(body ?? null) ?? 'null')
    .digest('hex');
}
