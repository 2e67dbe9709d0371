import {
  type ListCursor,
  cursorExpiry,
  cursorSigningKey,
  decodeCursor,
  encodeCursor,
  queryKeyOf,
} from '../../src/plugins/artikel/server/src/domain/list-cursor';

const key = cursorSigningKey('first-app-key-of-twenty-characters');
const otherKey = cursorSigningKey('second-app-key-of-twenty-characters');
const NOW = 1_800_000_000;

const cursor: ListCursor = {
  direction: 'after',
  position: { publishedMs: 1_795_600_000_123, createdMs: 1_795_600_000_100, documentId: 'yl7za0azs1flekbobh0s846s' },
  page: 2,
  queryKey: queryKeyOf([['wedding'], null, null, 10]),
  expires: NOW + 3600,
};

describe('list cursors', () => {
  it('open to the same cursor they were made from, with the key that signed them or any other listed', () => {
    const text = encodeCursor(cursor, key);
    expect(text).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(decodeCursor(text, [key], NOW)).toEqual(cursor);
    expect(decodeCursor(text, [otherKey, key], NOW)).toEqual(cursor);
  });

  it('are not opened when signed with a key no longer listed, or changed in any character', () => {
    const text = encodeCursor(cursor, key);
    expect(decodeCursor(text, [otherKey], NOW)).toBe('not-issued');
    for (let index = 0; index < text.length; index += 1) {
      if (text[index] === '.') continue;
      const changed = `${text.slice(0, index)}${text[index] === 'A' ? 'B' : 'A'}${text.slice(index + 1)}`;
      // The last character of the signature holds 4 bits of padding, which base64url decoding drops.
      if (index === text.length - 1 && Buffer.from(changed.split('.')[1], 'base64url').equals(Buffer.from(text.split('.')[1], 'base64url')))
        continue;
      expect(decodeCursor(changed, [key], NOW)).toBe('not-issued');
    }
  });

  it('are refused when cut short, empty, or not made of a payload and a signature', () => {
    const text = encodeCursor(cursor, key);
    for (const broken of [text.slice(0, -3), text.split('.')[0], '', '.', 'a.b.c', `${text}.x`, 'é.é'])
      expect(decodeCursor(broken, [key], NOW)).toBe('not-issued');
  });

  it('expire after their expiry second, not before', () => {
    const text = encodeCursor(cursor, key);
    expect(decodeCursor(text, [key], cursor.expires)).toEqual(cursor);
    expect(decodeCursor(text, [key], cursor.expires + 1)).toBe('expired');
  });

  it('work for at least their lifetime and at most one period (an hour, or the lifetime when shorter) more', () => {
    for (const lifetime of [1, 90, 3600, 86_400]) {
      for (const now of [NOW, NOW + 1, NOW + 1799, NOW + 3599]) {
        const expires = cursorExpiry(now, lifetime);
        expect(expires - now).toBeGreaterThanOrEqual(lifetime);
        expect(expires - now).toBeLessThanOrEqual(lifetime + Math.min(lifetime, 3600));
      }
    }
    // Within one hour every cursor of a day's lifetime expires at the same second: the answers that carry them stay the same.
    expect(cursorExpiry(NOW - (NOW % 3600), 86_400)).toBe(cursorExpiry(NOW - (NOW % 3600) + 3599, 86_400));
  });

  it('name a query by a short hash that differs when the query does', () => {
    expect(queryKeyOf([['wedding'], null, null, 10])).toBe(cursor.queryKey);
    expect(queryKeyOf([['wedding'], null, null, 20])).not.toBe(cursor.queryKey);
    expect(queryKeyOf([['wedding'], 'studio', null, 10])).not.toBe(cursor.queryKey);
  });
});

describe('list cursor positions', () => {
  it('are times from 1970 to the end of the year 9999: a later one, though signed, is not one this service issued', () => {
    const at = (publishedMs: number, createdMs = 0) =>
      encodeCursor({ ...cursor, position: { ...cursor.position, publishedMs, createdMs } }, key);
    const lastInstant = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    expect(decodeCursor(at(lastInstant, lastInstant), [key], NOW)).not.toBe('not-issued');
    expect(decodeCursor(at(lastInstant + 1), [key], NOW)).toBe('not-issued');
    expect(decodeCursor(at(0, lastInstant + 1), [key], NOW)).toBe('not-issued');
    expect(decodeCursor(at(Number.MAX_SAFE_INTEGER), [key], NOW)).toBe('not-issued');
  });
});
