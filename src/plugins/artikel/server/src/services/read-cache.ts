import { LRUCache } from 'lru-cache';

const MAX_ENTRIES = 5000;

interface Entry {
  value: unknown;
}

/**
 * Remembers the parts of public reads that change only when an article or category is written
 * (lists, article bodies, related articles, category counts); view counts are never cached.
 *
 * Every write drops everything once it has committed (see read-freshness.ts): this instance's
 * own at once, other instances' when the database tells. A read that began before the drop may
 * finish after it, holding the old data: it is answered but not remembered, because it is stored
 * only if the generation it started under is still current. While this instance cannot hear about
 * other instances' writes it remembers nothing.
 */
const readCache = () => {
  const entries = new LRUCache<string, Entry>({ max: MAX_ENTRIES });
  let generation = 0;
  let trusted = true;

  return {
    async remember<T>(key: string, compute: () => Promise<T>): Promise<T> {
      if (!trusted) return compute();
      const hit = entries.get(key);
      if (hit !== undefined) return hit.value as T;
      const startedUnder = generation;
      const value = await compute();
      if (startedUnder === generation && trusted) entries.set(key, { value });
      return value;
    },

    invalidate(): void {
      generation += 1;
      entries.clear();
    },

    /** Stops remembering (and forgets) until trust() is called. */
    distrust(): void {
      trusted = false;
      this.invalidate();
    },

    trust(): void {
      this.invalidate();
      trusted = true;
    },
  };
};

export default readCache;
