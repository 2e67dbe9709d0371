import type { Core } from '@strapi/strapi';
import type { AdminAnswers, TrashRecord } from '../../../shared/admin-api';
import { adminActor, commands } from '../commands';
import { getConfig } from '../infrastructure/get-service';
import type { TrashEntry } from '../repositories/trash';

type Context = {
  params: Record<string, string>;
  state: { userAbility?: unknown; user?: { id: number | string } };
  body: unknown;
  status: number;
};

/** A trashed article as the admin shows it (snake_case, like every record of the plugin). */
const trashRecord = (entry: TrashEntry): TrashRecord => ({
  document_id: entry.documentId,
  slug: entry.slug,
  title: entry.title,
  deleted_at: entry.deletedAt,
  deleted_by: entry.deletedBy,
  was_published_at: entry.wasPublishedAt,
  purge_after: entry.purgeAfter,
});

const editor = (ctx: Context) => adminActor(ctx.state.userAbility, ctx.state.user, 'admin');

/** The trash for editors: list, restore, purge one, empty (see commands/trash-commands.ts). */
const adminTrashController = ({ strapi }: { strapi: Core.Strapi }) => ({
  /** How long a deleted article waits in the trash: what the admin's delete dialog tells the editor. */
  async settings(ctx: Context) {
    ctx.body = { data: { keep_days: getConfig(strapi, 'trashDays') } } satisfies AdminAnswers['trashSettings'];
  },

  async find(ctx: Context) {
    ctx.body = { data: (await commands(strapi).trash.list(editor(ctx))).map(trashRecord) } satisfies AdminAnswers['trash'];
  },

  async restore(ctx: Context) {
    ctx.body = {
      data: await commands(strapi).trash.restore(editor(ctx), ctx.params.documentId),
    } satisfies AdminAnswers['restoredFromTrash'];
  },

  async purge(ctx: Context) {
    await commands(strapi).trash.purge(editor(ctx), ctx.params.documentId);
    ctx.status = 204;
    ctx.body = null;
  },

  async empty(ctx: Context) {
    ctx.body = { data: { purged: await commands(strapi).trash.empty(editor(ctx)) } } satisfies AdminAnswers['emptiedTrash'];
  },
});

export default adminTrashController;
