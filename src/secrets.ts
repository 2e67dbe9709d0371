import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Secrets come from the environment. Outside production a missing one is generated once and kept
 * in `.tmp/dev-secrets.json` (ignored by git), so API tokens and admin sessions survive a restart:
 * the API token salt in particular must not change, or every issued token stops working.
 */
type SecretName = 'APP_KEYS' | 'API_TOKEN_SALT' | 'ADMIN_JWT_SECRET' | 'TRANSFER_TOKEN_SALT' | 'ENCRYPTION_KEY' | 'JWT_SECRET';

const DEV_SECRETS_FILE = path.resolve(process.cwd(), '.tmp', 'dev-secrets.json');

function readDevSecrets(): Partial<Record<SecretName, string>> {
  try {
    return JSON.parse(fs.readFileSync(DEV_SECRETS_FILE, 'utf8')) as Partial<Record<SecretName, string>>;
  } catch {
    return {};
  }
}

function generate(name: SecretName): string {
  const random = () => crypto.randomBytes(16).toString('base64');
  return name === 'APP_KEYS' ? [random(), random(), random(), random()].join(',') : random();
}

/** How a production secret is made; the messages name it. */
const HOW_TO_GENERATE = `node -e "console.log(require('crypto').randomBytes(24).toString('base64'))"`;
// A secret guessed or copied is no secret: values shorter than this, or with fewer distinct
// characters (the entropy a copied word or "aaaa…" lacks), are refused in production.
const MIN_SECRET_LENGTH = 20;
const MIN_DISTINCT_CHARACTERS = 10;
// Placeholders of Strapi's own .env.example and the usual stand-ins, in any case.
const EXAMPLE_VALUES = new Set([
  'tobemodified',
  'tobemodified1',
  'tobemodified2',
  'changeme',
  'change-me',
  'secret',
  'example',
  'password',
]);

/** Why a production secret's value (one key of APP_KEYS) is refused, or null when it is strong enough. */
export function weakSecretReason(value: string): string | null {
  if (EXAMPLE_VALUES.has(value.trim().toLowerCase())) return 'is an example value';
  if (value.length < MIN_SECRET_LENGTH) return `is shorter than ${MIN_SECRET_LENGTH} characters`;
  if (new Set(value).size < MIN_DISTINCT_CHARACTERS) return `has fewer than ${MIN_DISTINCT_CHARACTERS} distinct characters`;
  return null;
}

/** A production secret as set, or a clear error naming what is wrong and how to make a good one. */
function checkedProductionSecret(name: SecretName, value: string | undefined): string {
  if (!value)
    throw new Error(
      `${name} is not set. Production needs every secret of .env.example in the environment; make each with ${HOW_TO_GENERATE}`,
    );
  // APP_KEYS holds several keys, each of which signs sessions and preview links on its own.
  const parts = name === 'APP_KEYS' ? value.split(',') : [value];
  for (const [index, part] of parts.entries()) {
    const reason = weakSecretReason(part);
    if (reason !== null) {
      const which = name === 'APP_KEYS' ? `APP_KEYS (key ${index + 1} of ${parts.length})` : name;
      throw new Error(`${which} ${reason}: production refuses weak secrets. Make each with ${HOW_TO_GENERATE}`);
    }
  }
  return value;
}

export function secret(name: SecretName): string {
  const fromEnv = process.env[name];
  if (process.env.NODE_ENV === 'production') return checkedProductionSecret(name, fromEnv);
  if (fromEnv) return fromEnv;
  const stored = readDevSecrets();
  const existing = stored[name];
  if (existing) return existing;
  const value = generate(name);
  fs.mkdirSync(path.dirname(DEV_SECRETS_FILE), { recursive: true });
  fs.writeFileSync(DEV_SECRETS_FILE, JSON.stringify({ ...stored, [name]: value }, null, 2), { mode: 0o600 });
  return value;
}
