import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { testDistDir } from './test-dist';

const APP_DIR = path.resolve(__dirname, '..', '..');
const strong = () => crypto.randomBytes(24).toString('base64');

/** Secrets production accepts, made for this test process. */
export const STRONG_SECRETS = {
  APP_KEYS: [strong(), strong()].join(','),
  API_TOKEN_SALT: strong(),
  ADMIN_JWT_SECRET: strong(),
  TRANSFER_TOKEN_SALT: strong(),
  ENCRYPTION_KEY: strong(),
  JWT_SECRET: strong(),
};

/**
 * Loads the compiled app's configuration in a process of its own, as `strapi start` does in
 * production: with strong secrets and a PUBLIC_URL unless `env` says otherwise (a variable given as
 * undefined is left out). The configuration is where secrets and PUBLIC_URL are read, so a refused
 * one stops the load. `print` is an expression over the loaded `app`, printed on success.
 */
export function productionConfigLoad(
  env: Record<string, string | undefined>,
  print = "'configuration loaded'",
): { status: number | null; output: string } {
  const childEnv = Object.fromEntries(
    Object.entries({ ...process.env, ...STRONG_SECRETS, NODE_ENV: 'production', PUBLIC_URL: 'https://api.studio.example', ...env }).filter(
      ([, value]) => value !== undefined,
    ),
  );
  const script = `const app = require('@strapi/strapi').createStrapi({ appDir: ${JSON.stringify(APP_DIR)}, distDir: ${JSON.stringify(testDistDir())} }); console.log(${print})`;
  const result = spawnSync(process.execPath, ['-e', script], { cwd: APP_DIR, env: childEnv, encoding: 'utf8', timeout: 120_000 });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}
