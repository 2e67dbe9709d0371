import crypto from 'node:crypto';

/** A documentId in the form Strapi gives one (cuid2: a lowercase letter, then 23 of [a-z0-9]), for rows the plugin writes with SQL. */
export function newDocumentId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = crypto.randomBytes(24);
  let id = alphabet[bytes[0] % 26];
  for (let index = 1; index < 24; index += 1) id += alphabet[bytes[index] % 36];
  return id;
}
