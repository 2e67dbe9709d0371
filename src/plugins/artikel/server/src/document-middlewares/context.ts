import type { Core, Modules } from '@strapi/strapi';
import { ARTICLE_UID, CATEGORY_UID } from '../constants';

/** The document actions after which what the public reads show may differ. */
const WRITE_ACTIONS = ['create', 'update', 'delete', 'publish', 'unpublish', 'discardDraft'] as const;
export type WriteAction = (typeof WRITE_ACTIONS)[number];

export type DocumentContext = Modules.Documents.Middleware.Context;
/** A Document Service middleware; what an action resolves to depends on the action, so it is unknown here. */
export type DocumentMiddleware = (context: DocumentContext, next: () => Promise<unknown>) => Promise<unknown>;
/** The type Strapi's registry declares for the same function. */
export type StrapiDocumentMiddleware = Parameters<Core.Strapi['documents']['use']>[0];

/** What the middlewares read of a document action: its type, its action, and the params it writes. */
export interface DocumentWrite {
  uid: string;
  action: WriteAction;
  params: { documentId?: string; data?: Record<string, unknown> };
}

function isWriteAction(action: unknown): action is WriteAction {
  return (WRITE_ACTIONS as readonly unknown[]).includes(action);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The write this action is, or null for a read (findMany, count, ...). */
export function documentWrite(context: DocumentContext): DocumentWrite | null {
  const { uid, action } = context;
  if (!isWriteAction(action)) return null;
  const { documentId, data } = (context.params ?? {}) as { documentId?: unknown; data?: unknown };
  return {
    uid,
    action,
    params: {
      ...(typeof documentId === 'string' ? { documentId } : {}),
      // The object itself, not a copy: the rules fill their defaults into the data being written.
      ...(isRecord(data) ? { data } : {}),
    },
  };
}

/** The documentId of the document an action wrote: the one it names, or the one it created. */
export function writtenDocumentId(write: DocumentWrite, result: unknown): string | null {
  if (typeof write.params.documentId === 'string') return write.params.documentId;
  const created = result as { documentId?: unknown } | null;
  return typeof created?.documentId === 'string' ? created.documentId : null;
}

/** The types whose writes this plugin's pipeline handles. */
export function isArticleOrCategory(uid: string): boolean {
  return uid === ARTICLE_UID || uid === CATEGORY_UID;
}
