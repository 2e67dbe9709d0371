// @same-on-every-store: what is checked is the bucket, whichever store the service starts on (not run by test:postgres, see jest.config.js)
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startS3Server, type S3Server } from '../helpers/s3-server';
import { removeServiceDatabase, serviceDatabaseEnv, startServiceProcess } from '../helpers/service-process';

let folder: string;
let databaseFile: string;
let store: S3Server;

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-s3-check-'));
  databaseFile = path.join(folder, 'data.db');
  store = await startS3Server();
});

afterAll(async () => {
  await store?.stop();
  await removeServiceDatabase(databaseFile);
  fs.rmSync(folder, { recursive: true, force: true });
});

/** Starts the service as an operator would and waits for it to exit; what it wrote to stderr. */
async function failedStart(env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child = fork(path.resolve(__dirname, '..', 'helpers', 'service-child.js'), [], {
    env: { ...process.env, ...(await serviceDatabaseEnv(databaseFile)), HOST: '127.0.0.1', PORT: '0', PUBLIC_DIR: folder, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.on('message', () => child.kill('SIGTERM'));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stderr, stdout };
}

describe('the start-up check of object storage', () => {
  it('refuses to start with a wrong secret, naming the bucket, the endpoint and what failed, and never the secret', async () => {
    const secret = 'not-the-S3RVER-secret-5b9e';
    const { code, stderr, stdout } = await failedStart({ ...store.env, S3_SECRET_ACCESS_KEY: secret });
    expect(code).toBe(1);
    expect(stderr).toContain(`bucket "${store.bucket}" at ${store.endpoint} failed the start-up check: could not write the check object`);
    expect(stderr).toContain('HTTP 403 SignatureDoesNotMatch');
    expect(stderr + stdout).not.toContain(secret);
  });

  it('refuses to start on a bucket that does not exist', async () => {
    const { code, stderr } = await failedStart({ ...store.env, S3_BUCKET: 'no-such-bucket' });
    expect(code).toBe(1);
    expect(stderr).toContain(`bucket "no-such-bucket" at ${store.endpoint} failed the start-up check: could not write the check object`);
    expect(stderr).toMatch(/NoSuchBucket/);
  });

  it('starts with the right credentials and leaves no check object behind', async () => {
    const service = await startServiceProcess(databaseFile, { ...store.env, PUBLIC_DIR: folder });
    try {
      expect((await fetch(`${service.baseUrl}/api/artikel`)).status).toBe(200);
      expect(await store.keys()).toEqual([]);
    } finally {
      await service.stop();
    }
  });
});
