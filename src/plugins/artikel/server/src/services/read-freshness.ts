import type { Core } from '@strapi/strapi';
import { publishedArticles } from '../repositories/articles';
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
    /** Called inside or after an article's write (in its transaction): drops what its published version can have changed. */
    async articleWritten(documentId: string): Promise<void> {
      const { tagKeys, categoryId } = await publishedArticles(strapi).tagsAndCategoryOf(documentId);
      await this.written({ documentId, tagKeys, categoryId });
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
