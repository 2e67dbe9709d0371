import type { Core } from '@strapi/strapi';
import { LRUCache } from 'lru-cache';
import type { ArticleWrite, WrittenScope } from '../domain/written-scope';
import { getConfig } from '../infrastructure/get-service';

/**
 * What a remembered read depends on. `published`: which articles are published and what their
 * summaries show (lists, latest, categories, feeds, sitemaps, "no such slug").
 * `document:<documentId>`: one article, as its own page or a summary among related articles.
 * `category:<id>` and `tag:<key>`: the articles in that category or with that tag (the lists
 * filtered by them; a category's newest fill related articles). `category-names`: which categories
 * a name or slug names (a list filtered by category).
 */
export type ReadScope = 'published' | 'category-names' | `document:${string}` | `category:${number}` | `tag:${string}`;

export const PUBLISHED: ReadScope = 'published';
export const CATEGORY_NAMES: ReadScope = 'category-names';
export const documentScope = (documentId: string): ReadScope => `document:${documentId}`;
export const categoryScope = (categoryId: number): ReadScope => `category:${categoryId}`;
export const tagScope = (tagKey: string): ReadScope => `tag:${tagKey}`;

/**
 * A read's scopes, and for a read that a write of any article may or may not change (related
 * articles, chosen by ranking; a search), the test of whether an article's write changed it.
 * Entries with the same `testKey` (every page of one search) share one test per write.
 */
export type ReadDependencies =
  readonly ReadScope[] | { scopes: readonly ReadScope[]; changedBy: (write: ArticleWrite) => boolean; testKey?: string };

interface Entry {
  value: unknown;
  scopes: readonly ReadScope[];
  changedBy?: (write: ArticleWrite) => boolean;
  testKey?: string;
}

/**
 * How many distinct shared tests (searches) the cache keeps entries for; the oldest's entries go
 * when another comes. Every article write runs each once, so this bounds a write's work whatever
 * visitors search for: 60,000 cached searches took 0.69 s of every write before.
 */
export const MAX_SHARED_TESTS = 128;

const normalized = (dependencies: ReadDependencies): Omit<Entry, 'value'> =>
  'scopes' in dependencies ? dependencies : { scopes: dependencies };

/** The scopes an article's write drops: the published set, the article, and its category and tags before and after. */
function scopesOf(write: ArticleWrite): ReadScope[] {
  const categoryIds = new Set([write.categoryId, write.previous.categoryId].filter((id): id is number => id !== null));
  const tagKeys = new Set([...write.tagKeys, ...write.previous.tagKeys]);
  return [PUBLISHED, documentScope(write.documentId), ...[...categoryIds].map(categoryScope), ...[...tagKeys].map(tagScope)];
}

// Keys, scopes and the entry's bookkeeping, beside the value's own bytes.
const ENTRY_OVERHEAD_BYTES = 256;

/** The bytes an entry holds, counted as its value's JSON (UTF-8) plus its key: an estimate that grows with what is kept. */
function entryBytes(key: string, value: unknown): number {
  const json = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return Buffer.byteLength(json) + Buffer.byteLength(key) + ENTRY_OVERHEAD_BYTES;
}

/**
 * Remembers public reads (lists, article pages, related articles, category counts, feeds,
 * sitemaps); view counts are never part of them. The cache holds at most `readCacheBytes` bytes
 * (ARTIKEL_READ_CACHE_MB; 0 turns it off), least recently used first out; one entry may take at
 * most a quarter of it.
 *
 * A write drops only what it can change, once it has committed (see read-freshness.ts): an
 * article's write drops its own page, everything depending on the published set, and the related
 * articles it can enter or leave (their own test, see domain/related-ranking.ts); not other
 * articles' pages. A read that began before a write it depends on may finish after it, holding the
 * old data: it is answered but not remembered. While this instance cannot hear about other instances' writes it
 * remembers nothing.
 */
const readCache = ({ strapi }: { strapi: Core.Strapi }) => {
  const maxBytes = getConfig(strapi, 'readCacheBytes');
  // The keys of the entries of each shared test, oldest test first.
  const sharedTests = new Map<string, Set<string>>();
  const forgetSharedTest = (entry: Entry, key: string): void => {
    if (entry.testKey === undefined) return;
    const keys = sharedTests.get(entry.testKey);
    keys?.delete(key);
    if (keys?.size === 0) sharedTests.delete(entry.testKey);
  };
  const entries =
    maxBytes > 0
      ? new LRUCache<string, Entry>({
          maxSize: maxBytes,
          maxEntrySize: Math.floor(maxBytes / 4),
          sizeCalculation: (entry, key) => entryBytes(key, entry.value),
          dispose: forgetSharedTest,
        })
      : null;

  /** Keeps an entry, and its shared test's place among at most MAX_SHARED_TESTS. */
  const keep = (key: string, entry: Entry): void => {
    if (entries === null) return;
    if (entry.testKey !== undefined && !sharedTests.has(entry.testKey)) {
      while (sharedTests.size >= MAX_SHARED_TESTS) {
        const [oldest, keys] = sharedTests.entries().next().value as [string, Set<string>];
        sharedTests.delete(oldest);
        for (const oldKey of keys) entries.delete(oldKey);
      }
      sharedTests.set(entry.testKey, new Set());
    }
    entries.set(key, entry);
    if (entry.testKey !== undefined) sharedTests.get(entry.testKey)?.add(key);
  };
  // A logical clock: each drop ticks it; a computed read is kept only if none of its scopes was dropped after it started.
  let clock = 0;
  let everythingDroppedAt = 0;
  const droppedAt = new Map<ReadScope, number>();
  // Article writes since the oldest read under way began, for the reads that test writes themselves.
  let articleWrites: Array<{ at: number; write: ArticleWrite }> = [];
  // Start times of the reads being computed, so drop times no read can be older than are forgotten.
  const inFlight = new Map<number, number>();
  // The computation under way for each key: concurrent misses of one key (every reader right after a
  // write) share it instead of each computing the same answer. A drop forgets them, so a read that
  // begins after a write never shares a computation begun before it.
  const computing = new Map<string, Promise<unknown>>();
  let trusted = true;

  const begin = (): number => {
    inFlight.set(clock, (inFlight.get(clock) ?? 0) + 1);
    return clock;
  };
  const end = (startedAt: number): void => {
    const left = (inFlight.get(startedAt) ?? 1) - 1;
    if (left === 0) inFlight.delete(startedAt);
    else inFlight.set(startedAt, left);
  };
  const changedSince = (startedAt: number, { scopes, changedBy }: Omit<Entry, 'value'>): boolean =>
    everythingDroppedAt > startedAt ||
    scopes.some((scope) => (droppedAt.get(scope) ?? 0) > startedAt) ||
    (changedBy !== undefined && articleWrites.some(({ at, write }) => at > startedAt && changedBy(write)));

  const forgetOldDrops = (): void => {
    const oldestRead = inFlight.size === 0 ? clock : Math.min(...inFlight.keys());
    for (const [scope, at] of droppedAt) if (at <= oldestRead) droppedAt.delete(scope);
    articleWrites = articleWrites.filter(({ at }) => at > oldestRead);
  };

  /** Every drop: the clock ticks, and computations begun before it are no longer shared. */
  const tick = (): number => {
    clock += 1;
    computing.clear();
    return clock;
  };

  /** Drops the entries of these scopes, and those an article's write changed by their own test. */
  const drop = (scopes: readonly ReadScope[], write: ArticleWrite | null): void => {
    const now = tick();
    for (const scope of scopes) droppedAt.set(scope, now);
    if (write !== null) articleWrites.push({ at: now, write });
    if (entries !== null) {
      const dropped = new Set(scopes);
      const verdicts = new Map<string, boolean>();
      const changed = (entry: Entry): boolean => {
        if (write === null || entry.changedBy === undefined) return false;
        if (entry.testKey === undefined) return entry.changedBy(write);
        let verdict = verdicts.get(entry.testKey);
        if (verdict === undefined) {
          verdict = entry.changedBy(write);
          verdicts.set(entry.testKey, verdict);
        }
        return verdict;
      };
      for (const [key, entry] of entries.entries()) {
        if (entry.scopes.some((scope) => dropped.has(scope)) || changed(entry)) entries.delete(key);
      }
    }
    forgetOldDrops();
  };

  return {
    /**
     * The remembered value of `key`, or `compute()`'s, remembered with what `dependenciesOf` says
     * it depends on (by default the published set).
     */
    async remember<T>(
      key: string,
      compute: () => Promise<T>,
      dependenciesOf: (value: T) => ReadDependencies = () => [PUBLISHED],
    ): Promise<T> {
      if (entries === null || !trusted) return compute();
      const hit = entries.get(key);
      if (hit !== undefined) return hit.value as T;
      const shared = computing.get(key);
      if (shared !== undefined) return shared as Promise<T>;
      const startedAt = begin();
      const computation: Promise<T> = compute()
        .then((value) => {
          const dependencies = normalized(dependenciesOf(value));
          if (trusted && !changedSince(startedAt, dependencies)) keep(key, { value, ...dependencies });
          return value;
        })
        .finally(() => {
          end(startedAt);
          if (computing.get(key) === computation) computing.delete(key);
        });
      computing.set(key, computation);
      return computation;
    },

    /** Drops what a committed write can have changed. */
    invalidate(written: WrittenScope = 'everything'): void {
      if (written === 'everything') {
        everythingDroppedAt = tick();
        droppedAt.clear();
        articleWrites = [];
        entries?.clear();
        return;
      }
      // The published set's reads and the category names: a new category.
      if (written === 'published') drop([PUBLISHED, CATEGORY_NAMES], null);
      else drop(scopesOf(written), written);
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

    /** What is held: entries and their counted bytes (for the benchmark and tests). */
    usage(): { entries: number; bytes: number; maxBytes: number; sharedTests: number } {
      return { entries: entries?.size ?? 0, bytes: entries?.calculatedSize ?? 0, maxBytes, sharedTests: sharedTests.size };
    },
  };
};

export default readCache;
