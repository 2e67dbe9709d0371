import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { removeServiceDatabase, serviceDatabaseEnv, startServiceProcess } from '../helpers/service-process';

const run = promisify(execFile);
const APP_DIR = path.resolve(__dirname, '..', '..');
let folder: string;

beforeAll(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-token-'));
});

afterAll(async () => {
  await removeServiceDatabase(path.join(folder, 'data.db'));
  fs.rmSync(folder, { recursive: true, force: true });
});

describe('npm run token', () => {
  it('says on stderr what it is doing and prints on stdout only a token that may publish', async () => {
    const databaseFile = path.join(folder, 'data.db');
    const env = { ...process.env, ...(await serviceDatabaseEnv(databaseFile)) };
    const started = Date.now();
    const { stdout, stderr } = await run('node', [path.join(APP_DIR, 'scripts', 'create-api-token.js'), 'n8n-workflow'], {
      cwd: APP_DIR,
      env,
    });
    process.stdout.write(`[automation] npm run token: ${Date.now() - started} ms\n`);

    expect(stderr).toMatch(/loading Strapi/);
    expect(stderr).toMatch(/creating the API token "n8n-workflow"/);
    const token = stdout.trim();
    expect(token).toMatch(/^[0-9a-f]{64,}$/);

    const service = await startServiceProcess(databaseFile);
    try {
      const post = (authorization: string) =>
        fetch(`${service.baseUrl}/api/artikel`, {
          method: 'POST',
          headers: { Authorization: authorization, 'Content-Type': 'application/json' },
          body: JSON.stringify({ title: 'From the workflow', category: 'Automation', content: 'Posted with the printed token.' }),
        });
      expect((await post(`Bearer ${token}`)).status).toBe(201);
      expect((await post(`Bearer ${token.slice(0, -1)}x`)).status).toBe(401);
    } finally {
      await service.stop();
    }
  });
});
