import type { Core } from '@strapi/strapi';
import { getService } from '../infrastructure/get-service';
import type { PostOutcome } from '../services/article-writes';
import { validateCreateArticle } from '../validation/create-article';
import { validateSlug } from '../validation/read-queries';
import { validateRevisionPath } from '../validation/revisions';
import type { WriteStatus } from '../validation/schedule';
import { validateUpdateArticle } from '../validation/update-article';
import type { Actor, ArticleAction } from './actor';
import { assertPermits } from './authorization';
import { ifMatchOf, keyedWrite, type WriteOptions } from './write-options';

/**
 * What changing an article needs besides Update: Publish whenever what readers see or will see
 * is touched (a live or scheduled article, or one made live or scheduled): publishing,
 * unpublishing, scheduling and editing the live text are all the Publish permission's.
 */
export function actionsOfChange(current: WriteStatus, target: WriteStatus, base: readonly ArticleAction[] = ['update']): ArticleAction[] {
  return current === 'draft' && target === 'draft' ? [...base] : [...base, 'publish'];
}

/**
 * The writes of an article, one command each, shared by every path (the REST API, the admin's
 * routes, the MCP tools). Each is given its actor and owns, in order: the replay of a keyed
 * request, validation, authorization on the article itself, and the write with its read-back
 * (services/article-writes.ts: one transaction, the Document Service). The outcome is what
 * idempotency stores; each path turns it into its own answer.
 */
export function articleCommands(strapi: Core.Strapi) {
  const writes = () => getService(strapi, 'article-writes');
  const replayOf = async (keyed: ReturnType<typeof keyedWrite>): Promise<PostOutcome | null> => {
    const stored = keyed === null ? null : await getService(strapi, 'idempotency').storedAnswer(keyed);
    return stored === null ? null : { ...stored, replayed: true };
  };

  return {
    /** POST /api/artikel and artikel_create: a new article, published unless its status says otherwise. */
    async create(actor: Actor, body: unknown, options: WriteOptions = {}): Promise<PostOutcome> {
      const keyed = keyedWrite(actor, options, body);
      const replayed = await replayOf(keyed);
      if (replayed !== null) return replayed;
      const input = await validateCreateArticle(body);
      assertPermits(strapi, actor, (input.status ?? 'published') === 'draft' ? ['create'] : ['create', 'publish']);
      const creatorId = actor.kind === 'admin' ? actor.userId : null;
      return writes().create(input, { dryRun: options.dryRun === true, keyed, creatorId });
    },

    /** PATCH /api/artikel/{slug} and artikel_update: the fields sent, a new slug, a status or a schedule. */
    async update(actor: Actor, rawSlug: string, body: unknown, options: WriteOptions = {}): Promise<PostOutcome> {
      const slug = await validateSlug(rawSlug);
      const ifMatch = ifMatchOf(options);
      const keyed = keyedWrite(actor, options, { method: 'PATCH', slug, body });
      const replayed = await replayOf(keyed);
      if (replayed !== null) return replayed;
      const input = await validateUpdateArticle(body);
      return writes().update(slug, input, {
        dryRun: options.dryRun === true,
        keyed,
        ifMatch,
        authorize: (article, { current, target }) => assertPermits(strapi, actor, actionsOfChange(current, target), article),
      });
    },

    /** A revision's text again (POST …/revisions/{number}/restore, the admin's panel, artikel_restore); a live article stays live. */
    async restoreRevision(actor: Actor, rawSlug: string, rawNumber: string, options: WriteOptions = {}): Promise<PostOutcome> {
      const { slug, number } = await validateRevisionPath(rawSlug, rawNumber, {});
      const ifMatch = ifMatchOf(options);
      return writes().restore(slug, number, {
        dryRun: options.dryRun === true,
        keyed: null,
        ifMatch,
        authorize: (article, { current }) => assertPermits(strapi, actor, actionsOfChange(current, current, ['read', 'update']), article),
      });
    },

    /** DELETE /api/artikel/{slug} and artikel_delete: into the trash (or gone, with no trash). */
    async remove(actor: Actor, rawSlug: string, options: Pick<WriteOptions, 'ifMatch'> = {}): Promise<{ slug: string }> {
      const slug = await validateSlug(rawSlug);
      const ifMatch = ifMatchOf(options);
      await writes().remove(slug, ifMatch, (article) => assertPermits(strapi, actor, ['delete'], article));
      return { slug };
    },
  };
}
