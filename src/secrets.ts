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

export function secret(name: SecretName): string {
  const fromEnv = process.env[name];
  if (fromEnv) return fromEnv;
  if (process.env.NODE_ENV === 'production') {
    throw new Error(`${name} is not set. Production needs every secret of .env.example in the environment.`);
  }
  const stored = readDevSecrets();
  const existing = stored[name];
  if (existing) return existing;
  const value = generate(name);
  fs.mkdirSync(path.dirname(DEV_SECRETS_FILE), { recursive: true });
  fs.writeFileSync(DEV_SECRETS_FILE, JSON.stringify({ ...stored, [name]: value }, null, 2), { mode: 0o600 });
  return value;
}
