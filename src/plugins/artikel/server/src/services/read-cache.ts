import { LRUCache } from 'lru-cache';

const MAX_ENTRIES = 5000;

interface Entry {
  value: unknown;
}

/**
 * Remembers the parts of public reads that change only when an article or category is written
 * (lists, article bodies, related articles, category counts); view counts are never cached.
 *
 * Every write bumps the generation after it has committed (see register.ts). A read that began
 * before the bump may finish after it, holding the old data: it is answered but not remembered,
 * because it is stored only if the generation it started under is still current.
 *
 * The cache lives in this process: it is only correct while this process makes every write,
 * which holds for the embedded SQLite deployment (see the README for several processes).
 */
const readCache = () => {
  const entries = new LRUCache<string, Entry>({ max: MAX_ENTRIES });
  let generation = 0;

  return {
    async remember<T>(key: string, compute: () => Promise<T>): Promise<T> {
      const hit = entries.get(key);
      if (hit !== undefined) return hit.value as T;
      const startedUnder = generation;
      const value = await compute();
      if (startedUnder === generation) entries.set(key, { value });
      return value;
    },

    invalidate(): void {
      generation += 1;
      entries.clear();
    },
  };
};

export default readCache;
