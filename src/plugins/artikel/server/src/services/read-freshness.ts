import type { Core } from '@strapi/strapi';
import { afterCommit } from '../repositories/transactions';
import { writeNotices } from '../repositories/write-notices';
import { getService } from '../utils/get-service';

/**
 * Keeps every instance's remembered reads true to the database: a write drops this instance's
 * once it commits and tells the other instances on the same database, which drop theirs.
 */
const readFreshness = ({ strapi }: { strapi: Core.Strapi }) => {
  const notices = writeNotices(strapi);
  const cache = () => getService(strapi, 'read-cache');

  return {
    /** Called inside or after every write that public reads can show. */
    async written(): Promise<void> {
      await notices.announce();
      await afterCommit(strapi, () => cache().invalidate());
    },

    async start(): Promise<void> {
      await notices.listen({
        written: () => cache().invalidate(),
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
