/**
 * The key a POST's per-token state is held under (its rate limit's count, its idempotency keys'
 * scope): one form, so the two always name a token alike.
 */
export function tokenKey(tokenId: number | string): string {
  return `token:${tokenId}`;
}
