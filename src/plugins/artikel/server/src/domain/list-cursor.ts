import { createHash, createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';

/**
 * Where an article stands in a list newest first: its published time, its created time and its
 * document id, a strict order that an edit does not change (an edit keeps both times, and the
 * document id is the article's for life, whereas Strapi gives a republished version a new row id).
 */
export interface ListPosition {
  publishedMs: number;
  createdMs: number;
  documentId: string;
}

/**
 * A place in a walk along a list: the articles `after` a position (the next page) or `before` it
 * (the previous page), the number the page has along the walk, and the query it belongs to.
 */
export interface ListCursor {
  direction: 'after' | 'before';
  position: ListPosition;
  page: number;
  queryKey: string;
  /** Seconds since 1970 after which the cursor no longer works. */
  expires: number;
}

/** Where a neighbouring page of a list is: past a cursor, at a page number, or the list's first page. */
export type PageLink = { cursor: string } | { page: number } | 'first';

export type CursorProblem = 'not-issued' | 'expired';

// The text's format: the payload as base64url JSON, a dot, and its HMAC-SHA256 truncated to 128 bits.
const VERSION = 1;
const SIGNATURE_BYTES = 16;
const DOCUMENT_ID = /^[a-z0-9]{1,64}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * The key cursors are signed with, derived from one of the app's keys (APP_KEYS), so no other use
 * of that key can make one. A KeyObject: every list page signs its links, and an HMAC given bytes
 * makes a key object of them on each call.
 */
export function cursorSigningKey(appKey: string): KeyObject {
  return createSecretKey(createHmac('sha256', appKey).update('artikel list cursor').digest());
}

/** A short, stable name of a query, which a cursor carries so that it works only with that query. */
export function queryKeyOf(query: unknown): string {
  return createHash('sha256').update(JSON.stringify(query)).digest('base64url').slice(0, 16);
}

const signatureOf = (payload: string, key: KeyObject): Buffer =>
  createHmac('sha256', key).update(payload).digest().subarray(0, SIGNATURE_BYTES);

/** The cursor as the opaque text a next or previous link carries. */
export function encodeCursor(cursor: ListCursor, key: KeyObject): string {
  const { direction, position, page, queryKey, expires } = cursor;
  const payload = Buffer.from(
    JSON.stringify([
      VERSION,
      direction === 'after' ? 'a' : 'b',
      position.publishedMs,
      position.createdMs,
      position.documentId,
      page,
      queryKey,
      expires,
    ]),
  ).toString('base64url');
  return `${payload}.${signatureOf(payload, key).toString('base64url')}`;
}

const isWholeNumber = (value: unknown, minimum: number): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= minimum;

// The last instant of the year 9999: every article's time lies before it, and both stores take it
// (a later one is no JavaScript date, or no four-digit ISO year PostgreSQL would parse).
const LAST_INSTANT_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const isInstant = (value: unknown): value is number => isWholeNumber(value, 0) && value <= LAST_INSTANT_MS;

/** The fields of a signed payload, or null when it is not one this code writes. */
function cursorOf(fields: unknown): ListCursor | null {
  if (!Array.isArray(fields) || fields.length !== 8) return null;
  const [version, direction, publishedMs, createdMs, documentId, page, queryKey, expires] = fields as unknown[];
  if (version !== VERSION || (direction !== 'a' && direction !== 'b')) return null;
  if (!isInstant(publishedMs) || !isInstant(createdMs) || !isWholeNumber(page, 1) || !isWholeNumber(expires, 0)) return null;
  if (typeof documentId !== 'string' || !DOCUMENT_ID.test(documentId) || typeof queryKey !== 'string') return null;
  return { direction: direction === 'a' ? 'after' : 'before', position: { publishedMs, createdMs, documentId }, page, queryKey, expires };
}

/**
 * The cursor a text holds when one of the keys signed it (the first key signs; the others still
 * open the cursors made before a key rotation), else why not. Expiry is checked here; whether the
 * cursor belongs to the query is the caller's to check (see queryKeyOf).
 */
export function decodeCursor(text: string, keys: KeyObject[], nowSeconds: number): ListCursor | CursorProblem {
  const [payload, signature, ...rest] = text.split('.');
  if (rest.length > 0 || payload === undefined || signature === undefined || !BASE64URL.test(payload) || !BASE64URL.test(signature))
    return 'not-issued';
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== SIGNATURE_BYTES || !keys.some((key) => timingSafeEqual(given, signatureOf(payload, key)))) return 'not-issued';
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return 'not-issued';
  }
  const cursor = cursorOf(fields);
  if (cursor === null) return 'not-issued';
  return cursor.expires < nowSeconds ? 'expired' : cursor;
}

/**
 * When a cursor issued now stops working: `lifetime` seconds from the start of the current period
 * of min(lifetime, an hour), plus one period. So it works for at least `lifetime` seconds, and a
 * list's answer (its links, hence its ETag) stays the same for a whole period.
 */
export function cursorExpiry(nowSeconds: number, lifetimeSeconds: number): number {
  const period = Math.min(lifetimeSeconds, 3600);
  return Math.floor(nowSeconds / period) * period + lifetimeSeconds + period;
}

/** Lifetimes as people say them: "24 hours", "90 seconds". */
function lifetimeText(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? 'an hour' : `${seconds / 3600} hours`;
  return seconds === 1 ? 'a second' : `${seconds} seconds`;
}

const START_AGAIN = 'start again from the first page without cursor, and follow links.next as it is';

/** What a client is told of a cursor that does not work, and what to do. */
export function cursorProblemMessage(problem: CursorProblem | 'another-query', lifetimeSeconds: number): string {
  if (problem === 'expired') return `cursor expired (a cursor works for ${lifetimeText(lifetimeSeconds)}): ${START_AGAIN}`;
  if (problem === 'another-query')
    return `cursor belongs to another query (it works only with the q, kategori, tag and limit of the list whose links gave it): ${START_AGAIN}`;
  return `cursor is not one this service issued (it was changed, cut short or made elsewhere): ${START_AGAIN}`;
}
