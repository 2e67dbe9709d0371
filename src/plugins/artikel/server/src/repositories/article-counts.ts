import type { Core } from '@strapi/strapi';
import { TABLES } from '../constants';
import { isSqlite } from '../infrastructure/database-dialect';
import { oncePerStrapi } from '../infrastructure/once-per-strapi';
import { database, readFixedRows } from '../infrastructure/transactions';
import { ARTICLES_BY_PUBLISHED_ID } from './articles/queries';
import { parseTags, tagKey } from '../utils/tags';

/**
 * The number of published articles overall, per category and per tag, kept by the write pipeline
 * (see services/article-index.ts) so that the categories read and a list's total read one row
 * instead of counting the published rows (1.8 s for the categories at a million articles).
 *
 * One row per counted thing: kind `all` (subject ''), `category` (subject: the category's row id),
 * `tag` (subject: the tag's key, see utils/tags). A write changes the rows by adding to them in SQL
 * (`articles = articles + ?`), never by writing a number read before, so two instances writing at
 * once on PostgreSQL cannot lose one another's change. A category or tag row that falls to 0 is
 * removed (tags come and go; the table stays as small as the tags in use); the `all` row always
 * exists once counted, and its absence says the counts were never made (a new table).
 */

type CountKind = 'all' | 'category' | 'tag';

/** How old the published total may be where it only chooses a plan (see totalAbout). */
const TOTAL_ABOUT_MS = 1_000;

/** What one document adds to the counts: its published rows, their categories (one per link) and its tags' keys. */
export interface CountedState {
  published: number;
  categoryIds: number[];
  tagKeys: string[];
  /** The ids of those published rows, ascending: which rows the state was read from (see sameRows). */
  rowIds: number[];
}

export const NOTHING_COUNTED: CountedState = { published: 0, categoryIds: [], tagKeys: [], rowIds: [] };

/** Whether two states of one document were read from the same published rows (both from none included). */
export function sameRows(a: CountedState, b: CountedState): boolean {
  return a.rowIds.length === b.rowIds.length && a.rowIds.every((id, index) => id === b.rowIds[index]);
}

interface Change {
  kind: CountKind;
  subject: string;
  delta: number;
}

const T = TABLES.articleCounts;
const COUNT_OF = `SELECT articles FROM ${T} WHERE kind = ? AND subject = ?`;
const CATEGORY_COUNTS = `SELECT subject, articles FROM ${T} WHERE kind = 'category'`;
const PUBLISHED_TOTAL = `SELECT count(*) AS total FROM ${TABLES.articles} WHERE published_at IS NOT NULL`;

function whole(value: unknown): number {
  const number = typeof value === 'bigint' ? Number(value) : Number(value ?? 0);
  if (!Number.isSafeInteger(number)) throw new Error(`not a count: ${String(value)}`);
  return number;
}

function parseCountRow(row: unknown): number | null {
  if (row === undefined || row === null || typeof row !== 'object') return null;
  return whole((row as { articles?: unknown }).articles);
}

/** The changes that turn the counts of `before` into those of `after` (nothing for an equal pair). */
export function countChanges(before: CountedState, after: CountedState): Change[] {
  const deltas = new Map<string, Change>();
  const add = (kind: CountKind, subject: string, delta: number): void => {
    const key = `${kind}\u0000${subject}`;
    const change = deltas.get(key) ?? { kind, subject, delta: 0 };
    change.delta += delta;
    deltas.set(key, change);
  };
  add('all', '', after.published - before.published);
  for (const id of before.categoryIds) add('category', String(id), -1);
  for (const id of after.categoryIds) add('category', String(id), 1);
  for (const key of new Set(before.tagKeys)) add('tag', key, -1);
  for (const key of new Set(after.tagKeys)) add('tag', key, 1);
  return [...deltas.values()].filter((change) => change.delta !== 0);
}

async function publishedTotal(strapi: Core.Strapi): Promise<number> {
  const [row] = await readFixedRows(strapi, PUBLISHED_TOTAL);
  return whole((row as { total?: unknown } | undefined)?.total);
}

export const articleCounts = oncePerStrapi((strapi: Core.Strapi) => {
  const sqlite = isSqlite(strapi);

  const countOf = async (kind: CountKind, subject: string): Promise<number | null> => {
    const [row] = await readFixedRows(strapi, COUNT_OF, [kind, subject]);
    return parseCountRow(row);
  };
  // The published total as last read by totalAbout, and when.
  let lastTotal: { total: number; readAt: number } | null = null;

  return {
    /** What a document adds to the counts as its rows stand now, in the current transaction: one indexed lookup. */
    async stateOf(documentId: string): Promise<CountedState> {
      const rows = (await database(strapi)({ a: TABLES.articles })
        .leftJoin({ l: TABLES.articleCategoryLinks }, 'l.article_id', 'a.id')
        .where('a.document_id', documentId)
        .whereNotNull('a.published_at')
        .select('a.id', 'a.tags', 'l.category_id')) as Array<{ id: unknown; tags: unknown; category_id: unknown }>;
      const rowIds = new Set<number>();
      const categoryIds: number[] = [];
      const tagKeys = new Set<string>();
      for (const row of rows) {
        const id = whole(row.id);
        if (row.category_id !== null && row.category_id !== undefined) categoryIds.push(whole(row.category_id));
        if (rowIds.has(id)) continue;
        rowIds.add(id);
        for (const tag of parseTags(typeof row.tags === 'string' ? row.tags : null)) tagKeys.add(tagKey(tag));
      }
      return { published: rowIds.size, categoryIds, tagKeys: [...tagKeys], rowIds: [...rowIds].sort((a, b) => a - b) };
    },

    /**
     * Adds what changed between a document's two states to the counts, in the current transaction:
     * one upsert that adds in SQL, then the category and tag rows it brought to 0 removed.
     */
    async apply(before: CountedState, after: CountedState): Promise<void> {
      const changes = countChanges(before, after);
      if (changes.length === 0) return;
      const db = database(strapi);
      await db.raw(
        `INSERT INTO ${T} (kind, subject, articles) VALUES ${changes.map(() => '(?, ?, ?)').join(', ')}
           ON CONFLICT (kind, subject) DO UPDATE SET articles = ${T}.articles + excluded.articles`,
        changes.flatMap((change) => [change.kind, change.subject, change.delta]),
      );
      const lowered = changes.filter((change) => change.delta < 0 && change.kind !== 'all');
      if (lowered.length > 0)
        await db.raw(
          `DELETE FROM ${T} WHERE articles = 0 AND (${lowered.map(() => '(kind = ? AND subject = ?)').join(' OR ')})`,
          lowered.flatMap((change) => [change.kind, change.subject]),
        );
    },

    /**
     * Counts everything again from the rows, in the current transaction (the caller holds the
     * article writes' turn): the published rows, their category links, and the tag index (built
     * from the same rows, one row per tag and document). Readers on other connections see the old
     * counts until it commits, then the new ones.
     */
    async recount(): Promise<void> {
      const db = database(strapi);
      await db.raw(`DELETE FROM ${T}`);
      await db.raw(
        `INSERT INTO ${T} (kind, subject, articles) SELECT 'all', '', count(*) FROM ${TABLES.articles} WHERE published_at IS NOT NULL`,
      );
      await this.recountCategories();
      await db.raw(`INSERT INTO ${T} (kind, subject, articles) SELECT 'tag', tag, count(*) FROM ${TABLES.tags} GROUP BY tag`);
    },

    /**
     * Counts every category again, in the current transaction: after a category write that moved
     * articles between categories (the category's own `articles` field), which the article
     * pipeline does not see. On SQLite, one category at a time: its links in the links' category
     * index, each article looked up in the published ids' index (never its row). A GROUP BY over
     * every published article's link sorted them all first, in memory (temp_store): 44 MB at a
     * million articles, which took the service's RSS past 400 MB at the end of a build. PostgreSQL
     * groups them in a hash table within its work_mem.
     */
    async recountCategories(): Promise<void> {
      const db = database(strapi);
      await db.raw(`DELETE FROM ${T} WHERE kind = 'category'`);
      await db.raw(
        sqlite
          ? `INSERT INTO ${T} (kind, subject, articles)
               SELECT 'category', CAST(id AS TEXT), articles FROM (
                 SELECT c.id, (SELECT count(*) FROM ${TABLES.articleCategoryLinks} l
                   CROSS JOIN ${ARTICLES_BY_PUBLISHED_ID} ON a.id = l.article_id
                   WHERE l.category_id = c.id AND a.published_at IS NOT NULL) AS articles
                 FROM ${TABLES.categories} c) AS counted
               WHERE articles > 0`
          : `INSERT INTO ${T} (kind, subject, articles)
               SELECT 'category', CAST(l.category_id AS TEXT), count(*)
               FROM ${TABLES.articles} a JOIN ${TABLES.articleCategoryLinks} l ON l.article_id = a.id
               WHERE a.published_at IS NOT NULL GROUP BY l.category_id`,
      );
    },

    /** Forgets the counts of deleted categories, in the current transaction (their links went with them): a handful of rows. */
    async removeMissingCategories(): Promise<void> {
      await database(strapi).raw(
        `DELETE FROM ${T} WHERE kind = 'category' AND NOT EXISTS (SELECT 1 FROM ${TABLES.categories} c WHERE CAST(c.id AS TEXT) = ${T}.subject)`,
      );
    },

    /** Whether the counts were made and their total still agrees with the published rows (at start: a new table, a file copied in). */
    async agreeWithRows(): Promise<boolean> {
      const total = await countOf('all', '');
      return total !== null && total === (await publishedTotal(strapi));
    },

    /** The number of published articles. */
    async total(): Promise<number> {
      return Math.max(0, (await countOf('all', '')) ?? 0);
    },

    /**
     * The number of published articles as read at most TOTAL_ABOUT_MS ago: for choosing how to
     * read a page, where a number a second old costs at most a slower plan. On PostgreSQL each
     * read is a round trip, one of a search's five.
     */
    async totalAbout(): Promise<number> {
      const now = Date.now();
      if (lastTotal === null || now - lastTotal.readAt > TOTAL_ABOUT_MS) lastTotal = { total: await this.total(), readAt: now };
      return lastTotal.total;
    },

    /** The number of published articles in this category (by row id). */
    async inCategory(categoryId: number): Promise<number> {
      return Math.max(0, (await countOf('category', String(categoryId))) ?? 0);
    },

    /** The number of published articles with this tag (by key). */
    async withTag(key: string): Promise<number> {
      return Math.max(0, (await countOf('tag', key)) ?? 0);
    },

    /** Every category's number of published articles, by the category's row id (categories without any left out). */
    async perCategory(): Promise<Map<number, number>> {
      const rows = (await readFixedRows(strapi, CATEGORY_COUNTS)) as Array<{ subject: unknown; articles: unknown }>;
      return new Map(rows.map((row) => [whole(row.subject), Math.max(0, whole(row.articles))]));
    },
  };
});

/** The counts' table, created at every boot if missing (empty: the start counts, see agreeWithRows). */
export async function ensureCountTable(strapi: Core.Strapi): Promise<void> {
  const knex = strapi.db.connection;
  if (await knex.schema.hasTable(T)) return;
  await knex.schema.createTable(T, (table) => {
    table.string('kind', 16).notNullable();
    table.string('subject', 255).notNullable();
    table.bigInteger('articles').notNullable();
    table.primary(['kind', 'subject']);
  });
}
