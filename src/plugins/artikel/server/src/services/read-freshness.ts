import type { Core } from '@strapi/strapi';
import { type PublishedVersion, publishedArticles } from '../repositories/articles';
import { indexComplete } from '../infrastructure/index-state';
import { lockUntilCommit } from '../infrastructure/locks';
import { afterCommit } from '../infrastructure/transactions';
import { writeNotices } from '../infrastructure/write-notices';
import { getService } from '../infrastructure/get-service';
import type { WrittenScope } from '../domain/written-scope';

/**
 * Searches are tested against a written article's texts, before and after (see the read cache's
 * shared tests); past this many characters they are not read, and the write counts as changing
 * every search, so a write's cost stays bounded however long its article.
 */
const MAX_TESTED_TEXT = 32 * 1024;

/** The searchable texts of an article's versions, or undefined (every search changed) when one is too long to test. */
function searchableTexts(versions: Array<PublishedVersion | null>): string[] | undefined {
  const texts = versions.flatMap((version) => (version === null ? [] : [version.searchableText]));
  return texts.every((text) => text.length <= MAX_TESTED_TEXT) ? texts : undefined;
}

/**
 * Keeps every instance's remembered reads true to the database: a write drops what it can change
 * from this instance's once it commits and tells the other instances on the same database what it
 * wrote, which drop the same from theirs.
 */
const readFreshness = ({ strapi }: { strapi: Core.Strapi }) => {
  const notices = writeNotices(strapi);
  const cache = () => getService(strapi, 'read-cache');

  return {
    /**
     * Called inside an article's write, before it: takes the database's turn for article writes
     * until the write commits (PostgreSQL; SQLite writes one at a time anyway), so what
     * articleWritten reads before and after it is not mixed with another instance's write of the
     * same moment, and returns the article's published version before it (null when it has none).
     */
    async articleWriteBegins(documentId: string | undefined): Promise<PublishedVersion | null> {
      await lockUntilCommit(strapi, 'article-writes');
      return documentId === undefined ? null : publishedArticles(strapi).publishedVersionOf(documentId);
    },

    /**
     * Called inside an article's write, after it (in its transaction), with the article's published
     * version before it: drops what the write can have changed; nothing when it left the published
     * version as it was (a draft's save).
     */
    async articleWritten(documentId: string, before: PublishedVersion | null): Promise<void> {
      const articles = publishedArticles(strapi);
      const after = await articles.publishedVersionOf(documentId);
      if (after?.rowId === before?.rowId) return;
      // Which related articles it pushed out is read from the tag index: while that is built, say everything.
      if (!indexComplete(strapi)) return this.written();
      await this.written({
        documentId,
        tagKeys: after?.tagKeys ?? [],
        categoryId: after?.categoryId ?? null,
        previous: { tagKeys: before?.tagKeys ?? [], categoryId: before?.categoryId ?? null },
        published: after === null ? null : { at: after.publishedAt, createdAt: after.createdAt },
        pushedOut: after === null ? [] : await articles.pushedOutOfCandidates(after.tagKeys, after.publishedAt),
        texts: searchableTexts([before, after]),
      });
    },

    /** Called inside or after every write that public reads can show, with what it wrote. */
    async written(scope: WrittenScope = 'everything'): Promise<void> {
      await notices.announce(scope);
      await afterCommit(strapi, () => cache().invalidate(scope));
    },

    async start(): Promise<void> {
      await notices.listen({
        written: (scope) => cache().invalidate(scope),
        deaf: () => cache().distrust(),
        hearing: () => cache().trust(),
      });
    },

    async stop(): Promise<void> {
      await notices.close();
    },
  };
};

export default readFreshness;
