import type { Core } from '@strapi/strapi';
import { getService } from '../infrastructure/get-service';
import type { TrashEntry } from '../repositories/trash';

type Context = { params: Record<string, string>; body: unknown; status: number };

/** A trashed article as the admin shows it (snake_case, like every record of the plugin). */
const trashRecord = (entry: TrashEntry) => ({
  document_id: entry.documentId,
  slug: entry.slug,
  title: entry.title,
  deleted_at: entry.deletedAt,
  deleted_by: entry.deletedBy,
  was_published_at: entry.wasPublishedAt,
  purge_after: entry.purgeAfter,
});

/** The trash for editors: list, restore, purge one, empty (see services/trash.ts). */
const adminTrashController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async find(ctx: Context) {
    ctx.body = { data: (await getService(strapi, 'trash').list()).map(trashRecord) };
  },

  async restore(ctx: Context) {
    ctx.body = { data: await getService(strapi, 'trash').restore(ctx.params.documentId) };
  },

  async purge(ctx: Context) {
    await getService(strapi, 'trash').purge(ctx.params.documentId);
    ctx.status = 204;
    ctx.body = null;
  },

  async empty(ctx: Context) {
    ctx.body = { data: { purged: await getService(strapi, 'trash').empty() } };
  },
});

export default adminTrashController;
