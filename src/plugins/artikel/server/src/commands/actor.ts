import { tokenKey } from '../utils/token-key';

/** What a command may be asked to do to an article: the Content Manager's actions on Article. */
export type ArticleAction = 'read' | 'create' | 'update' | 'delete' | 'publish';

/**
 * Who asks for a command. Each path turns its credential into one of these, and the command
 * decides on the article itself what that credential may do:
 * - an API token (REST): the studio's API actions the token holds (no conditions exist for them);
 * - an admin user (the admin's routes) or an admin token (Strapi's MCP server): the role's
 *   Content Manager permissions, conditions such as "is creator" included, through Strapi's own
 *   permission checker;
 * - the service itself (the scheduler, a script), which may do everything.
 */
export type Actor =
  | { kind: 'api-token'; tokenId: string; actions: ReadonlySet<ArticleAction> }
  | { kind: 'admin'; userId: number | string; ability: unknown; via: 'admin' | 'mcp' }
  | { kind: 'system'; name: 'scheduler' | 'script' };

/** The credentials Strapi's content-api-token strategy puts in ctx.state.auth. */
export interface ApiTokenCredentials {
  id?: number | string;
  type?: string;
  permissions?: unknown;
}

const TOKEN_ACTION = (action: 'create' | 'update' | 'delete') => `plugin::artikel.artikel.${action}`;

/**
 * An API token as an actor. A full-access token may do everything; a custom token what its
 * permissions name (artikel.create, artikel.update, artikel.delete). A token that may create or
 * change articles publishes what it writes (the contract's POST and PATCH publish), and one that
 * may update reads drafts and revisions.
 */
export function apiTokenActor(credentials: ApiTokenCredentials | undefined): Actor {
  const tokenId = tokenKey(credentials?.id ?? 'none');
  if (credentials?.type === 'full-access')
    return { kind: 'api-token', tokenId, actions: new Set(['read', 'create', 'update', 'delete', 'publish']) };
  const held = new Set(Array.isArray(credentials?.permissions) ? credentials.permissions.filter((item) => typeof item === 'string') : []);
  const actions = new Set<ArticleAction>();
  if (held.has(TOKEN_ACTION('create'))) actions.add('create').add('publish');
  if (held.has(TOKEN_ACTION('update'))) actions.add('update').add('publish').add('read');
  if (held.has(TOKEN_ACTION('delete'))) actions.add('delete');
  return { kind: 'api-token', tokenId, actions };
}

/** An editor in the admin (their session) or an agent with their admin token (Strapi's MCP server). */
export function adminActor(ability: unknown, user: { id: number | string } | undefined, via: 'admin' | 'mcp'): Actor {
  if (user === undefined) throw new Error('an admin actor needs the signed-in user');
  return { kind: 'admin', userId: user.id, ability, via };
}

export const SCHEDULER: Actor = { kind: 'system', name: 'scheduler' };
export const SCRIPT: Actor = { kind: 'system', name: 'script' };

/** Whose Idempotency-Keys a key belongs to: one token's, or one admin user's (all their tokens). */
export function idempotencyScope(actor: Actor): string {
  if (actor.kind === 'api-token') return actor.tokenId;
  if (actor.kind === 'admin') return `admin-user:${actor.userId}`;
  return `system:${actor.name}`;
}
