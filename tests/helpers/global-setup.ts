import fs from 'node:fs';
import path from 'node:path';
import { compileStrapi } from '@strapi/strapi';

/** Compiles the app once per run, from an empty dist/, so no test ever runs stale compiled code. */
export default async function globalSetup(): Promise<void> {
  const appDir = path.resolve(__dirname, '..', '..');
  fs.rmSync(path.join(appDir, 'dist'), { recursive: true, force: true });
  process.env.STRAPI_TELEMETRY_DISABLED = 'true';
  await compileStrapi({ appDir });
}
