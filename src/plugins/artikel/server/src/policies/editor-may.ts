import type { Core } from '@strapi/strapi';
import { adminActor } from '../commands';
import { assertPermits } from '../commands/authorization';
import type { ArticleAction } from '../commands/actor';

/** What a route names: the Content Manager's actions on Article its editor needs. */
interface EditorMayConfig {
  actions: ArticleAction[];
}

interface PolicyContext {
  state: { userAbility?: unknown; user?: { id: number | string } };
}

/**
 * The plugin's admin routes (trash, revisions, views, the delete dialog's setting) let through an
 * editor whose role holds these actions on Article, as the Content Manager checks them: a refusal
 * is a 403 that names the permission missing and whom to ask (contract, fourth round: a 403 names
 * the permission and how to get it), where Strapi's own hasPermissions policy said "Policy Failed".
 * Whether the editor may do it to one article (an Author's "is creator") the route's command
 * decides, with that article.
 */
export default function editorMay(policyContext: PolicyContext, config: EditorMayConfig, { strapi }: { strapi: Core.Strapi }): boolean {
  assertPermits(strapi, adminActor(policyContext.state.userAbility, policyContext.state.user, 'admin'), config.actions);
  return true;
}
