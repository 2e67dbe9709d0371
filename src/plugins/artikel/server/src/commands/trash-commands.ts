import type { Core } from '@strapi/strapi';
import { getService } from '../infrastructure/get-service';
import type { TrashEntry } from '../repositories/trash';
import type { Actor, ArticleAction } from './actor';
import { assertPermits, type OwnedArticle, permits } from './authorization';

/** A trashed article as the permission conditions see it: its creator is kept with it in the trash. */
const ownedEntry = (entry: TrashEntry): OwnedArticle => ({ documentId: entry.documentId, slug: entry.slug, createdById: entry.creatorId });

/**
 * The trash's commands for editors (the admin's trash page and routes). An editor sees and acts
 * on the trashed articles their role admits, conditions included: an Author whose permissions
 * carry "is creator" sees, restores and purges only their own. Restoring needs Create and Read on
 * the article, and Publish when it comes back live (or scheduled); purging and emptying need Delete.
 */
export function trashCommands(strapi: Core.Strapi) {
  const trash = () => getService(strapi, 'trash');

  return {
    /** The trashed articles the actor may read, the most recently deleted first. */
    async list(actor: Actor): Promise<TrashEntry[]> {
      assertPermits(strapi, actor, ['read']);
      return (await trash().list()).filter((entry) => permits(strapi, actor, 'read', ownedEntry(entry)));
    },

    async restore(actor: Actor, documentId: string): Promise<{ documentId: string; slug: string }> {
      assertPermits(strapi, actor, ['read', 'create']);
      return trash().restore(documentId, (entry, { goesLive }) => {
        const actions: ArticleAction[] = goesLive ? ['read', 'create', 'publish'] : ['read', 'create'];
        assertPermits(strapi, actor, actions, ownedEntry(entry));
      });
    },

    async purge(actor: Actor, documentId: string): Promise<void> {
      assertPermits(strapi, actor, ['delete']);
      await trash().purge(documentId, (entry) => assertPermits(strapi, actor, ['read', 'delete'], ownedEntry(entry)));
    },

    /** Purges every trashed article the actor may delete; resolves to how many. */
    async empty(actor: Actor): Promise<number> {
      assertPermits(strapi, actor, ['delete']);
      return trash().empty(
        (entry) => permits(strapi, actor, 'read', ownedEntry(entry)) && permits(strapi, actor, 'delete', ownedEntry(entry)),
      );
    },
  };
}
