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
