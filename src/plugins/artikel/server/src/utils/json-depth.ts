/**
 * Whether a parsed JSON value nests deeper than `limit` arrays and objects. Iterative, so a body
 * nested 100,000 deep is measured without the recursion that overflows the stack of a validator
 * reading it; it stops at the first value past the limit, and otherwise visits each value once.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const { value: current, depth } = pending.pop() as { value: unknown; depth: number };
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) pending.push({ value: child, depth: depth + 1 });
  }
  return false;
}
