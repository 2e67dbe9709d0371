import type { Core } from '@strapi/strapi';
import { markCountsComplete, markIndexComplete, trigramsComplete, vocabularyComplete } from '../infrastructure/index-state';
import { articleCounts, NOTHING_COUNTED, sameRows, type CountedState } from '../repositories/article-counts';
import { lockUntilCommit } from '../infrastructure/locks';
import { searchIndex } from '../repositories/search';
import { tagIndex } from '../repositories/tags';
import { rowsWithoutReadingTime, storeReadingTime } from '../repositories/reading-times';
import { inTransaction } from '../infrastructure/transactions';
import { withBulkWrites } from '../infrastructure/bulk-writes';
import { textWork } from '../infrastructure/text-work';
import { yieldToEventLoop } from '../utils/event-loop';
import { getService } from '../infrastructure/get-service';
import { detached } from '../infrastructure/detached-work';

/**
 * Article rows (ids) looked at per transaction of a build, about half of them published: each
 * chunk holds the writes' turn (SQLite's one write connection, PostgreSQL's article-writes lock)
 * and, on SQLite, the process, for a fraction of a second.
 */
const BUILD_CHUNK_IDS = 1000;
const RETRY_MS = 5000;
// Rows whose reading time is counted per transaction of the fill: a batch reads their whole content.
const READING_TIME_BATCH = 200;
const PROGRESS_EVERY = 10_000;
// How long the fill of what a build left for later holds the turn before a build asked for meanwhile takes it.
const FILL_SLICE_MS = 1000;

/**
 * Keeps the plugin's lookup tables (tags, full-text search) in step with the published articles.
 * Called after every write that can change what is published (see document-middlewares), at boot,
 * and after writes that bypassed the Document Service (a data transfer, see outside-writes) to
 * repair what changed behind its back. Every search entry records the published row it was built
 * from (article_id), and a document's tag rows are always written with its search entry, in one
 * transaction: so "every published row has its search entry" means the whole index is complete,
 * which boot can check without reading any article's text.
 */
const articleIndex = ({ strapi }: { strapi: Core.Strapi }) => {
  const search = () => searchIndex(strapi);
  const tags = () => tagIndex(strapi);
  const counts = () => articleCounts(strapi);
  let running: Promise<void> | null = null;
  let stopped = false;

  /** Removes the entries of rows no longer published, then indexes the published rows without one, a chunk per transaction. */
  const build = async (): Promise<void> => {
    const removed = await search().removeStale();
    await tags().removeUnindexed();
    let added = 0;
    const lastId = await search().lastArticleId();
    await withBulkWrites(strapi, async () => {
      for (let afterId = 0; afterId < lastId && !stopped; afterId += BUILD_CHUNK_IDS) {
        const chunk = await inTransaction(strapi, async () => {
          // A concurrent write of an article indexes it in its own transaction; taking turns with
          // them keeps a chunk from indexing a row that a write replaces meanwhile.
          await lockUntilCommit(strapi, 'article-writes');
          const articleIds = await search().addMissing(afterId, afterId + BUILD_CHUNK_IDS);
          await tags().add(articleIds);
          return articleIds;
        });
        if (Math.floor((added + chunk.length) / PROGRESS_EVERY) > Math.floor(added / PROGRESS_EVERY))
          strapi.log.info(`artikel: index: ${added + chunk.length} articles added`);
        added += chunk.length;
        await yieldToEventLoop();
      }
    });
    // What the chunks left for the build's end (SQLite: the words of a start's build's entries).
    if (stopped || !(await search().fillVocabulary(() => stopped))) return;
    await recount();
    await search().settle(added);
    if (added + removed.length > 0) strapi.log.info(`artikel: index updated (${added} articles added, ${removed.length} removed)`);
  };

  /**
   * Counts the published articles again from the rows (see article-counts), in one transaction that
   * takes the article writes' turn, so no write's change to the counts falls between the count and
   * its commit; reads on other connections see the old counts until then.
   */
  const recount = async (): Promise<void> => {
    await inTransaction(strapi, async () => {
      await lockUntilCommit(strapi, 'article-writes');
      await counts().recount();
    });
    markCountsComplete(strapi, true);
  };

  /**
   * Once the service listens (the start's own queries would each wait for a chunk on SQLite's one
   * write connection; a process that never listens, a script or a CLI command, serves no reads and
   * leaves the work to the service): runs `work`, again after RETRY_MS while it fails, then `done`.
   */
  const inBackground = (what: string, work: () => Promise<void>, done: () => void = () => undefined): void => {
    const attempt = (): void => {
      work()
        .then(() => {
          if (!stopped) done();
        })
        .catch((error: unknown) => {
          if (stopped) return;
          strapi.log.warn(`artikel: ${what} failed, retrying: ${String(error)}`);
          setTimeout(attempt, RETRY_MS).unref();
        });
    };
    // Outside the async context of whatever asked for it (a repair after a request's write).
    const begin = (): void => detached(attempt);
    const server = strapi.server.httpServer;
    if (server.listening) begin();
    else server.once('listening', begin);
  };

  /** Runs work after the one running (a build, a recount), one at a time; a stopped service runs none. */
  const inTurn = async (work: () => Promise<void>): Promise<void> => {
    const previous = running;
    const next = (async () => {
      await previous?.catch(() => undefined);
      if (!stopped) await work();
    })();
    running = next;
    try {
      await next;
    } finally {
      if (running === next) running = null;
    }
  };

  /**
   * Once the service listens: fills what a build left for later (see SearchIndex.fillTrigrams), in
   * turn a slice at a time, so a build asked for meanwhile (a repair after outside writes) runs
   * between two slices instead of after the whole fill: minutes at a million articles.
   */
  const fillAfterBuild = (): void => {
    inBackground(
      "adding the build's entries to the trigram index",
      async () => {
        for (let filled = false; !filled && !stopped;) {
          const sliceEnd = Date.now() + FILL_SLICE_MS;
          await inTurn(async () => {
            filled = await search().fillTrigrams(() => stopped || Date.now() > sliceEnd);
          });
        }
      },
      () => strapi.log.info('artikel: the trigram index holds every search entry'),
    );
  };

  /**
   * Counts the reading time of every row written before it was counted at write time (an older
   * version's rows, an old export's import), in batches between which the event loop runs; until
   * then a read counts such an article's minutes from its content itself.
   */
  const fillReadingTimes = async (): Promise<number> => {
    let filled = 0;
    for (let afterId = 0; !stopped;) {
      const rows = await rowsWithoutReadingTime(strapi, afterId, READING_TIME_BATCH);
      if (rows.length === 0) break;
      // Counted before the transaction (a long content on a thread, see text-work.ts), which then only writes.
      const minutes: number[] = [];
      for (const row of rows) minutes.push(await textWork('readingTimeMinutes', row.content ?? ''));
      await inTransaction(strapi, async () => {
        for (const [index, row] of rows.entries()) await storeReadingTime(strapi, row.id, minutes[index]);
      });
      filled += rows.length;
      afterId = rows[rows.length - 1].id;
      await yieldToEventLoop();
    }
    if (filled > 0) strapi.log.info(`artikel: counted the reading time of ${filled} article rows written before it was stored`);
    return filled;
  };

  return {
    fillReadingTimes,

    /**
     * What a document adds to the published articles' counts before a write (inside the write's
     * transaction, once it holds the article writes' turn); nothing for a new document. Given back
     * to syncDocument after the write, which adds the difference.
     */
    async countedBefore(documentId: string | undefined): Promise<CountedState> {
      if (documentId === undefined) return NOTHING_COUNTED;
      return inTransaction(strapi, () => counts().stateOf(documentId));
    },

    /**
     * After a write: the document's tag rows and search entry follow its published row and, given
     * its state before the write (countedBefore), the counts follow it too. Joins the write's
     * transaction, so the index and the counts never disagree with what was committed.
     *
     * A write that left the document's published rows as they were (a draft's save, the update
     * half of a PATCH of a live article, a discarded draft) leaves their entries true: Strapi
     * writes a new published row on every publish and never edits one, so the entries, built from
     * the same rows, would be deleted and written again unchanged. The one write that edits a
     * published row in place (a publication restamped, see publication.ts) says so with
     * publicationRestamped.
     */
    async syncDocument(documentId: string, before?: CountedState): Promise<void> {
      await inTransaction(strapi, async ({ trx }) => {
        const after = before === undefined ? undefined : await counts().stateOf(documentId);
        if (before === undefined || after === undefined || !sameRows(before, after)) {
          await tags().sync(documentId);
          await search().sync(trx, documentId);
        }
        if (before !== undefined && after !== undefined) await counts().apply(before, after);
      });
    },

    /**
     * After a published row's publication time was rewritten in place (publication.ts), in that
     * transaction: the tag rows carry the time and follow it; the search entry holds no time (its
     * texts and its row are those the publish indexed), so it stays as it is.
     */
    async publicationRestamped(documentId: string): Promise<void> {
      await inTransaction(strapi, () => tags().sync(documentId));
    },

    /**
     * After a category write that the article pipeline does not see change articles: a category
     * deleted (its links to articles went with it) or one whose `articles` field moved articles
     * in or out (`moved`), in the write's transaction. A delete forgets the category's count; a
     * move counts every category again (the articles' former categories are not named by the
     * write), which reads every published article's link: rare (an editor's change in the
     * category's form), and it takes the article writes' turn meanwhile.
     */
    async categoryWritten({ deleted, moved }: { deleted: boolean; moved: boolean }): Promise<void> {
      if (!deleted && !moved) return;
      await inTransaction(strapi, async () => {
        await lockUntilCommit(strapi, 'article-writes');
        if (moved) await counts().recountCategories();
        else await counts().removeMissingCategories();
      });
    },

    /** Brings the index in line with the published rows, and counts them again; one run at a time (a run asked for during one follows it). */
    async reconcile(): Promise<void> {
      await inTurn(build);
      fillAfterBuild();
    },

    /**
     * At boot: a complete index is used at once. An incomplete one (a new or imported file, a
     * build cut off) is built in the background once the service listens, while it answers; until
     * it is done, searches, tag filters and related articles read the articles themselves (see
     * index-state).
     */
    async start(): Promise<void> {
      const fill = (): void => {
        fillReadingTimes().catch((error: unknown) => strapi.log.warn(`artikel: counting reading times failed: ${String(error)}`));
      };
      if (strapi.server.httpServer.listening) fill();
      else strapi.server.httpServer.once('listening', fill);
      if (!vocabularyComplete(strapi)) {
        inBackground(
          "adding the search entries' words to the vocabulary",
          () => inTurn(async () => void (await search().fillVocabulary(() => stopped))),
          () => strapi.log.info("artikel: the search vocabulary holds every entry's words"),
        );
      }
      // A fill a stop cut off (see fillAfterBuild).
      if (!trigramsComplete(strapi)) fillAfterBuild();
      // After any build (in turn): a build writes its entries a chunk per segment.
      const compactAfter = (): void =>
        inBackground('compacting the search index', () => inTurn(async () => void (await search().compact(() => stopped))));
      if (await search().isComplete()) {
        if (!(await counts().agreeWithRows())) this.recountInBackground();
        compactAfter();
        return;
      }
      markIndexComplete(strapi, false);
      markCountsComplete(strapi, false);
      strapi.log.info(
        'artikel: building the tag and search index in the background; searches and tag filters read the articles directly until it is done',
      );
      // At 100,000 articles the start's queries came about 0.3 s apart while the build ran, some
      // ten seconds more before the first answer: it starts once the service listens.
      inBackground(
        'building the index',
        () => this.reconcile(),
        () => {
          markIndexComplete(strapi, true);
          // What was remembered meanwhile was read without the index: read it again through it.
          getService(strapi, 'read-cache').invalidate();
          strapi.log.info('artikel: the tag and search index is complete');
        },
      );
      compactAfter();
    },

    /**
     * Counts the published articles again once the service listens (a new count table, or counts
     * that disagree with the rows at start); until then the reads count the rows themselves.
     */
    recountInBackground(): void {
      markCountsComplete(strapi, false);
      inBackground(
        'counting the published articles',
        () => inTurn(recount),
        () => {
          getService(strapi, 'read-cache').invalidate();
          strapi.log.info('artikel: the published articles are counted');
        },
      );
    },

    /** Stops a build between two chunks (the next start goes on where it stopped) and waits for it. */
    async stop(): Promise<void> {
      stopped = true;
      await running?.catch(() => undefined);
    },
  };
};

export default articleIndex;
