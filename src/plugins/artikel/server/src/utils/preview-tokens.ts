import crypto from 'node:crypto';

/**
 * Signed, expiring preview tokens: "<documentId>.<expiry in epoch seconds>.<HMAC-SHA256>", each
 * part base64url. Whoever holds one may read that one draft until it expires, nothing else.
 */
const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const decode = (part: string) => Buffer.from(part, 'base64url').toString('utf8');
const BASE64URL = /^[A-Za-z0-9_-]+$/;

function signature(key: Buffer, payload: string): Buffer {
  return crypto.createHmac('sha256', key).update(payload).digest();
}

export function signPreviewToken(key: Buffer, documentId: string, expiresAtSeconds: number): string {
  const payload = `${encode(documentId)}.${encode(String(expiresAtSeconds))}`;
  return `${payload}.${signature(key, payload).toString('base64url')}`;
}

/** The documentId a token grants, or null when it is malformed, forged or expired at `nowSeconds`. */
export function verifyPreviewToken(key: Buffer, token: string, nowSeconds: number): string | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) return null;
  const [documentPart, expiryPart, signaturePart] = parts;
  const expected = signature(key, `${documentPart}.${expiryPart}`);
  const given = Buffer.from(signaturePart, 'base64url');
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  const expiresAt = Number(decode(expiryPart));
  if (!Number.isSafeInteger(expiresAt) || expiresAt <= nowSeconds) return null;
  const documentId = decode(documentPart);
  return documentId === '' ? null : documentId;
}

/** A URL from a pattern such as https://studio.example/artikel/{slug}, each placeholder URL-encoded. */
export function fillUrlPattern(pattern: string, values: Record<string, string>): string {
  return pattern.replace(/\{(\w+)\}/g, (placeholder, name: string) => (name in values ? encodeURIComponent(values[name]) : placeholder));
}
