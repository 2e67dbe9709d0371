import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { ARTICLE_UID } from '../constants';
import { quotedText } from '../utils/quoted-text';
import type { OwnedArticle } from '../domain/article-owner';
import type { Actor, ArticleAction } from './actor';

export type { OwnedArticle };

/** The Content Manager's permission checker, as far as commands use it. */
interface PermissionChecker {
  can: Record<ArticleAction, (entity?: object) => boolean>;
}

/** How each action is named where an administrator grants it. */
const PERMISSION_NAMES: Record<ArticleAction, string> = {
  read: 'Read',
  create: 'Create',
  update: 'Update',
  delete: 'Delete',
  publish: 'Publish',
};

/** The entity Strapi's permission conditions are evaluated on ("is creator" reads createdBy.id). */
const conditionSubject = (article: OwnedArticle) => ({
  documentId: article.documentId,
  createdBy: article.createdById === null ? null : { id: Number(article.createdById) },
});

/** Whether the actor may do this to the article (to articles at all, without one). */
export function permits(strapi: Core.Strapi, actor: Actor, action: ArticleAction, article?: OwnedArticle): boolean {
  if (actor.kind === 'system') return true;
  if (actor.kind === 'api-token') return actor.actions.has(action);
  const checker = (
    strapi.plugin('content-manager').service('permission-checker') as {
      create: (options: { userAbility: unknown; model: string }) => PermissionChecker;
    }
  ).create({ userAbility: actor.ability, model: ARTICLE_UID });
  if (article !== undefined) return checker.can[action](conditionSubject(article));
  // Creating: the new article will be the actor's own, which is what "is creator" asks.
  if (action === 'create') return checker.can.create({ createdBy: { id: Number(actor.userId) } });
  return checker.can[action]();
}

/** What a refused actor is told to do about it: never an action it may not take. */
function remedy(actor: Actor, action: ArticleAction, article?: OwnedArticle): string {
  if (actor.kind === 'api-token')
    return action === 'publish' || action === 'read'
      ? 'use a token that may update articles (full access, or a custom token with artikel.update)'
      : `use a token that may ${action} articles (full access, or a custom token with artikel.${action}): Settings → API Tokens`;
  return `ask an administrator for the Content Manager's ${PERMISSION_NAMES[action]} permission on Article${
    action === 'publish' || article === undefined ? '' : ' for this article'
  }`;
}

/**
 * A refusal naming the permission missing and the article: a 403 on every HTTP path (a
 * PolicyError, which Strapi's authorization step passes on with its message) and the text of the
 * MCP tool's error.
 */
export function refusal(actor: Actor, action: ArticleAction, article?: OwnedArticle): errors.PolicyError {
  const whom = actor.kind === 'api-token' ? 'This API token' : actor.kind === 'admin' ? 'Your role' : 'The service';
  const what = article === undefined ? 'articles' : article.slug === null ? 'this article' : `the article ${quotedText(article.slug)}`;
  const verb = action === 'publish' ? 'publish or unpublish' : action;
  return new errors.PolicyError(`${whom} may not ${verb} ${what}: ${remedy(actor, action, article)}`, {
    permission: action,
    ...(article === undefined ? {} : { article: article.slug ?? article.documentId }),
  });
}

/** Refuses (throws) unless the actor may do every one of the actions to the article. */
export function assertPermits(strapi: Core.Strapi, actor: Actor, actions: readonly ArticleAction[], article?: OwnedArticle): void {
  for (const action of actions) if (!permits(strapi, actor, action, article)) throw refusal(actor, action, article);
}
