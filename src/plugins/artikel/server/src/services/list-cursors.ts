import type { Core } from '@strapi/strapi';
import type { KeyObject } from 'node:crypto';
import {
  type CursorProblem,
  type ListCursor,
  type ListPosition,
  cursorExpiry,
  cursorProblemMessage,
  cursorSigningKey,
  decodeCursor,
  encodeCursor,
  queryKeyOf,
} from '../domain/list-cursor';
import { getConfig } from '../infrastructure/get-service';
import { foldCase } from '../utils/search-words';
import { tagKey } from '../utils/tags';
import type { ListQuery } from '../validation/read-queries';
import { fieldError, validationError } from '../validation/validate';

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/**
 * The cursors of list walks (see domain/list-cursor.ts): signed with the app's keys (APP_KEYS),
 * so every instance with the same keys opens every instance's cursors, also after a restart.
 */
const listCursors = ({ strapi }: { strapi: Core.Strapi }) => {
  let keys: KeyObject[] | null = null;
  const signingKeys = (): KeyObject[] => {
    keys ??= (strapi.config.get('server.app.keys') as string[]).map(cursorSigningKey);
    return keys;
  };

  /** What a cursor is bound to: the list's filters (words in any case and order, category and tag in any case) and its page size. */
  const queryKey = (query: ListQuery): string =>
    queryKeyOf([
      query.words.map(foldCase).sort(),
      query.kategori?.toLowerCase() ?? null,
      query.tag === null ? null : tagKey(query.tag),
      query.limit,
    ]);

  const refused = (problem: CursorProblem | 'another-query') => {
    const message = cursorProblemMessage(problem, getConfig(strapi, 'cursorSeconds'));
    return validationError([fieldError('cursor', message)]);
  };

  return {
    /** The cursor a list request carries, when it is one this service issued for this query and it has not expired; else a 400 saying what to do. */
    open(text: string, query: ListQuery): ListCursor {
      const cursor = decodeCursor(text, signingKeys(), nowSeconds());
      if (typeof cursor === 'string') throw refused(cursor);
      if (cursor.queryKey !== queryKey(query)) throw refused('another-query');
      return cursor;
    },

    /** A cursor to the page of this query `after` or `before` a position, numbered `page` along the walk. */
    issue(direction: ListCursor['direction'], position: ListPosition, page: number, query: ListQuery): string {
      const expires = cursorExpiry(nowSeconds(), getConfig(strapi, 'cursorSeconds'));
      return encodeCursor({ direction, position, page, queryKey: queryKey(query), expires }, signingKeys()[0]);
    },
  };
};

export default listCursors;
