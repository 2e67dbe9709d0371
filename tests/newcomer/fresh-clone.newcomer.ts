import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * A newcomer's first minutes, as the README has them: a fresh clone of the committed project, the
 * machine's own Node first on PATH (Debian's 20 on CI, whatever a developer has), and the README's
 * command pasted verbatim. The Node 24 the commands fetch is the only help they get.
 */
const APP_DIR = path.resolve(__dirname, '..', '..');
const run = promisify(execFile);
const MINUTE = 60_000;

/** PATH without the Node 24 this run itself uses (the cache's, or any node_modules/.bin): the machine's own node first. */
function machinePath(): string {
  return (process.env.PATH ?? '')
    .split(':')
    .filter((folder) => !folder.includes('studio-artikel/node24') && !folder.includes('node_modules'))
    .join(':');
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

let clone: string;
let demo: ChildProcess | null = null;
let output = '';

beforeAll(() => {
  clone = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-newcomer-'));
  execFileSync('git', ['clone', '--quiet', '--depth', '1', `file://${APP_DIR}`, clone]);
});

afterAll(() => {
  if (demo?.pid !== undefined) {
    try {
      process.kill(-demo.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  fs.rmSync(clone, { recursive: true, force: true });
});

it(
  'npm install && npm run demo, pasted on a fresh clone with the machine’s Node, serves the demo’s Indonesian articles with photos',
  async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: machinePath(), CI: 'true', STRAPI_TELEMETRY_DISABLED: 'true' };
    for (const name of Object.keys(env))
      if (name.startsWith('npm_') || name === 'ARTIKEL_DIST_DIR' || name.startsWith('DATABASE_')) delete env[name];
    const { stdout: found } = await run('node', ['--version'], { env });
    process.stdout.write(`[newcomer] the machine's node: ${found.trim()}\n`);

    const port = await freePort();
    const started = Date.now();
    let installedAt = 0;
    demo = spawn('bash', ['-c', 'npm install --no-audit --no-fund && echo "[installed]" && npm run demo'], {
      cwd: clone,
      env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
      detached: true,
    });
    const listen = (chunk: Buffer) => {
      output = `${output}${chunk.toString()}`.slice(-20_000);
      if (installedAt === 0 && output.includes('[installed]')) installedAt = Date.now();
    };
    demo.stdout?.on('data', listen);
    demo.stderr?.on('data', listen);
    let exited: number | null = null;
    demo.on('exit', (code) => {
      exited = code ?? -1;
    });

    const base = `http://127.0.0.1:${port}`;
    let answer: Response | null = null;
    while (Date.now() - started < 25 * MINUTE && exited === null) {
      answer = await fetch(`${base}/api/artikel?limit=50`).catch(() => null);
      if (answer?.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
    if (answer?.status !== 200) throw new Error(`no 200 from the demo (exit ${exited}):\n${output.slice(-4000)}`);
    const firstAnswer = Date.now();
    process.stdout.write(
      `[newcomer] install ${((installedAt - started) / 1000).toFixed(0)} s; first 200 ${((firstAnswer - installedAt) / 1000).toFixed(0)} s after it\n`,
    );
    expect(output).not.toMatch(/Segmentation fault|SIGSEGV/);

    const list = (await answer.json()) as {
      data: Array<{ title: string; cover_image_url: string | null }>;
      meta: { pagination: { total: number } };
    };
    expect(list.meta.pagination.total).toBeGreaterThanOrEqual(12);
    expect(
      list.data.some((article) => article.title === 'Lensa makro untuk detail cincin pernikahan' && article.cover_image_url !== null),
    ).toBe(true);
    const moved = await fetch(`${base}/api/artikel/tas-kamera-kami`, { redirect: 'manual' });
    expect(moved.status).toBe(301);
    expect((await fetch(`${base}/admin`)).status).toBe(200);
  },
  30 * MINUTE,
);
