import fs from 'node:fs';
import { removeTestTemplate } from './store';

/** Removes the run's template database; prints how many answers the run checked against the OpenAPI document (see openapi-check.ts). */
export default async function globalTeardown(): Promise<void> {
  // The run's template database (global-setup.ts): a developer's own PostgreSQL keeps nothing of the run.
  await removeTestTemplate();
  const tally = process.env.ARTIKEL_OPENAPI_TALLY;
  if (tally === undefined || !fs.existsSync(tally)) return;
  const total = fs
    .readFileSync(tally, 'utf8')
    .split('\n')
    .filter(Boolean)
    .reduce((sum, line) => sum + Number(line), 0);
  fs.rmSync(tally, { force: true });
  process.stdout.write(
    `\n[openapi] ${total} answers checked against src/plugins/artikel/server/src/openapi/openapi.json, every one as documented\n`,
  );
}
