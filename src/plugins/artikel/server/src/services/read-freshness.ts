import type { Core } from '@strapi/strapi';
import { type PublishedVersion, publishedArticles } from '../repositories/articles';
import { afterCommit } from '../repositories/transactions';
import { writeNotices } from '../repositories/write-notices';
import { getService } from '../utils/get-service';
import type { WrittenScope } from '../utils/written-scope';

/**
 * Keeps every instance's remembered reads true to the database: a write drops what it can change
 * from this instance's once it commits and tells the other instances on the same database what it
 * wrote, which drop the same from theirs.
 */
const readFreshness = ({ strapi }: { strapi: Core.Strapi }) => {
  const notices = writeNotices(strapi);
  const cache = () => getService(strapi, 'read-cache');

  return {
    /** An article's published version (null when it has none): read before its write, for articleWritten. */
    async publishedVersionOf(documentId: string): Promise<PublishedVersion | null> {
      return publishedArticles(strapi).publishedVersionOf(documentId);
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
      await this.written({
        documentId,
        tagKeys: after?.tagKeys ?? [],
        categoryId: after?.categoryId ?? null,
        previous: { tagKeys: before?.tagKeys ?? [], categoryId: before?.categoryId ?? null },
        published: after === null ? null : { at: after.publishedAt, createdAt: after.createdAt },
        pushedOut: after === null ? [] : await articles.pushedOutOfCandidates(after.tagKeys),
        texts: [before, after].flatMap((version) => (version === null ? [] : [version.searchableText])),
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
