import { AsyncLocalStorage } from 'node:async_hooks';
import type { Core } from '@strapi/strapi';
import type { RevisionActor } from '../domain/article-revisions';

/**
 * What the revision of a write records besides the article: who made it, when that is not the
 * request's credential (the scheduler runs outside any request), and the revision it restores.
 */
export interface WriteOrigin {
  actor?: RevisionActor;
  restoredFrom?: number;
  /**
   * A write of the plugin's own commands (the API, MCP): its revision is named by what it changed.
   * Its document actions are its means, not what was asked (a PATCH of a live article updates and
   * publishes again, and is an update), where an editor's Publish in the Content Manager is asked.
   */
  command?: true;
}

const origins = new AsyncLocalStorage<WriteOrigin>();

/** Runs work with this origin for the writes it makes. */
export function withWriteOrigin<T>(origin: WriteOrigin, work: () => Promise<T>): Promise<T> {
  return origins.run({ ...origins.getStore(), ...origin }, work);
}

export function writeOrigin(): WriteOrigin | undefined {
  return origins.getStore();
}

/** What Strapi's request context holds that names who is asking (see services/revisions.ts). */
export interface RequestState {
  user?: { id?: unknown; firstname?: unknown; lastname?: unknown; username?: unknown; email?: unknown };
  auth?: { strategy?: { name?: unknown }; credentials?: { id?: unknown; name?: unknown } };
  auditSource?: unknown;
}

/**
 * The request a write runs in (one HTTP request may make several document writes: a PATCH that
 * unpublishes, updates and publishes), or the origin's scope outside any request; undefined for a
 * script's write. The object itself serves as the write's key.
 */
export function currentRequest(strapi: Core.Strapi): { state?: RequestState } | WriteOrigin | undefined {
  return (strapi.requestContext.get() as { state?: RequestState } | undefined) ?? origins.getStore();
}

const shortText = (value: unknown, length: number): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, length) : null;

/** Who is writing: the scheduler or another origin that says so, else the request's credential; a script is "system". */
export async function currentActor(strapi: Core.Strapi): Promise<RevisionActor> {
  const origin = writeOrigin()?.actor;
  if (origin !== undefined) return origin;
  const request = currentRequest(strapi);
  const state: RequestState | undefined = request !== undefined && 'state' in request ? request.state : undefined;
  if (state === undefined) return { kind: 'system', id: null, name: null };
  const userId = typeof state.user?.id === 'number' || typeof state.user?.id === 'string' ? String(state.user.id) : null;
  if (state.auditSource === 'mcp' && userId !== null) {
    // Strapi's MCP server names only the admin token's owner, by id.
    const owner = (await strapi.db.query('admin::user').findOne({ where: { id: userId }, select: ['firstname', 'lastname', 'email'] })) as
      RequestState['user'] | null;
    return { kind: 'mcp', id: userId, name: personName(owner) };
  }
  const strategy = state.auth?.strategy?.name;
  const credentials = state.auth?.credentials;
  if (strategy === 'content-api-token' && credentials !== undefined) {
    const id = typeof credentials.id === 'number' || typeof credentials.id === 'string' ? String(credentials.id) : null;
    return { kind: 'api-token', id, name: shortText(credentials.name, 255) };
  }
  // An editor signed in to the admin, or a tool using an admin token: the token's owner.
  if ((strategy === 'admin' || strategy === 'admin-token') && userId !== null)
    return { kind: 'editor', id: userId, name: personName(state.user) };
  return { kind: 'system', id: null, name: null };
}

/** An admin user's name as the admin shows it: first and last name, else the e-mail address. */
function personName(user: RequestState['user'] | null | undefined): string | null {
  if (!user) return null;
  const name = [user.firstname, user.lastname].filter((part): part is string => typeof part === 'string' && part.trim() !== '').join(' ');
  return shortText(name, 255) ?? shortText(user.username, 255) ?? shortText(user.email, 255);
}
