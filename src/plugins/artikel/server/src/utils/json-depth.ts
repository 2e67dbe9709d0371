/**
 * Where a parsed JSON value nests deeper than `limit` arrays and objects: the top-level field that
 * does ([] when the value itself is too deep at its top), or null when nothing does. Iterative, so
 * a body nested 100,000 deep is measured without the recursion that overflows the stack of a
 * validator reading it; it stops at the first value past the limit and visits each value once.
 */
export function tooDeepField(value: unknown, limit: number): string[] | null {
  const pending: Array<{ value: unknown; depth: number; field: string | null }> = [{ value, depth: 0, field: null }];
  while (pending.length > 0) {
    const { value: current, depth, field } = pending.pop() as { value: unknown; depth: number; field: string | null };
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > limit) return field === null ? [] : [field];
    for (const [key, child] of Object.entries(current)) pending.push({ value: child, depth: depth + 1, field: field ?? key });
  }
  return null;
}
