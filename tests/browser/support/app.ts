import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serviceNodeOptions, serviceStartScript } from '../../../scripts/node-options';
import { freePort } from '../../helpers/ports';

export const REPO_DIR = path.resolve(__dirname, '..', '..', '..');
export const STUDIO_NAME = 'Lichtbild Studio';

/**
 * The service as production runs it: a copy of the working tree built with `npm run build` and
 * served as `npm start` serves it (scripts/start.js) with NODE_ENV=production, on its own SQLite file and port.
 *
 * The build happens in a copy (node_modules linked, not copied) because `npm test` empties and
 * recompiles the working tree's dist/ in its global setup: sharing dist/ would let either suite
 * pull the compiled code, or the admin panel, from under the other.
 */
export interface ProductionApp {
  appDir: string;
  baseUrl: string;
  /** The build's time, or the copy's when an earlier file's build of the same sources was reused. */
  buildMs: number;
  buildReused: boolean;
  startMs: number;
  /** The server's stdout and stderr, for failure messages. */
  serverLog: () => string;
  stop: () => Promise<void>;
}

const children = new Set<ChildProcess>();

/** Ends a process group this suite started (detached children lead their own group). */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

async function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  killGroup(child, 'SIGTERM');
  const timer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
  children.delete(child);
}

/**
 * The build and the server lead their own process groups (npm, sh, node and esbuild in one), which
 * an interrupted Jest would leave behind: Jest gives test files a stand-in `process` that hears no
 * signals. So each group gets a small watcher that, once this Jest process is gone, kills the group
 * and removes the run's folder; it ends by itself when the group ends.
 */
const WATCHER = `
const [jest, group] = process.argv.slice(1, 3).map(Number);
const folder = process.argv[3];
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };
setInterval(() => {
  if (!alive(-group)) process.exit(0);
  if (alive(jest)) return;
  try { process.kill(-group, 'SIGKILL'); } catch {}
  require('node:fs').rmSync(folder, { recursive: true, force: true });
  process.exit(0);
}, 1000);
`;

function watchGroup(child: ChildProcess, folder: string): void {
  if (child.pid === undefined) return;
  spawn(process.execPath, ['-e', WATCHER, String(process.pid), String(child.pid), folder], { detached: true, stdio: 'ignore' }).unref();
}

/** Ends every process this module started; for afterAll when beforeAll timed out mid-build. */
export async function stopAllChildren(): Promise<void> {
  await Promise.all([...children].map((child) => stopChild(child, 5_000)));
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, logFile: string, folder: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const out = fs.openSync(logFile, 'a');
    const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', out, out] });
    children.add(child);
    watchGroup(child, folder);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      children.delete(child);
      fs.closeSync(out);
      if (code === 0) resolve();
      else {
        const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
        reject(new Error(`${command} ${args.join(' ')} ended with ${code ?? signal}:\n${tail}`));
      }
    });
  });
}

/** The files of the working tree (tracked and new, not ignored), without tests and benchmark. */
function sourceFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO_DIR,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return listed
    .split('\0')
    .filter((file) => file !== '' && !/^(tests|bench)\//.test(file))
    .filter((file) => fs.existsSync(path.join(REPO_DIR, file))); // deleted but not yet committed
}

function copyApp(appDir: string, files: string[]): void {
  for (const file of files) {
    const target = path.join(appDir, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(REPO_DIR, file), target);
  }
  fs.mkdirSync(path.join(appDir, 'public', 'uploads'), { recursive: true });
  fs.symlinkSync(path.join(REPO_DIR, 'node_modules'), path.join(appDir, 'node_modules'), 'dir');
}

/**
 * Each browser file starts its own service, but the production build (`dist/`: the compiled server
 * and the admin panel, about a minute) is the same for all of them as long as the sources are: it
 * holds no port, address or secret (the admin is served from the server's origin, so Strapi writes
 * only the path of the backend into it). So the first file's build is kept in the system's temp
 * folder under a hash of every source file (and of any STRAPI_ADMIN_* variable, which Strapi would
 * write into the admin), and the suite's other files, in this run or the next, copy it (14 MB)
 * instead of building again. A change to any source file gives a new hash, hence a new build.
 */
const BUILD_CACHE_PREFIX = 'artikel-browser-build-';
/** Kept builds unused for this long are removed when a new one is kept. */
const BUILD_CACHE_MAX_AGE_MS = 24 * 60 * 60_000;

function buildKey(files: string[]): string {
  const hash = crypto.createHash('sha256');
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(REPO_DIR, file)));
    hash.update('\0');
  }
  const adminVariables = Object.entries(process.env).filter(([name]) => name.startsWith('STRAPI_ADMIN_'));
  for (const [name, value] of adminVariables.sort(([a], [b]) => a.localeCompare(b))) hash.update(`${name}=${value ?? ''}\0`);
  return hash.digest('hex').slice(0, 20);
}

/** The kept build of these sources copied into `appDir`; false when there is none yet. */
function reuseBuild(key: string, appDir: string): boolean {
  const kept = path.join(os.tmpdir(), `${BUILD_CACHE_PREFIX}${key}`);
  if (!fs.existsSync(kept)) return false;
  fs.cpSync(path.join(kept, 'dist'), path.join(appDir, 'dist'), { recursive: true });
  const now = new Date();
  fs.utimesSync(kept, now, now); // in use: not removed as stale
  return true;
}

/**
 * Keeps `appDir`'s build for the next files. Copied beside and then renamed into place, so a kept
 * build is always whole (a rename is atomic; if another run kept the same build first, ours goes).
 */
function keepBuild(key: string, appDir: string): void {
  const kept = path.join(os.tmpdir(), `${BUILD_CACHE_PREFIX}${key}`);
  const partial = `${kept}.partial-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  try {
    fs.cpSync(path.join(appDir, 'dist'), path.join(partial, 'dist'), { recursive: true });
    fs.renameSync(partial, kept);
  } catch {
    fs.rmSync(partial, { recursive: true, force: true });
  }
  // Builds of older sources, and copies a killed run left half-made, once unused for a day.
  for (const name of fs.readdirSync(os.tmpdir())) {
    if (!name.startsWith(BUILD_CACHE_PREFIX) || name === path.basename(kept)) continue;
    const entry = path.join(os.tmpdir(), name);
    try {
      if (Date.now() - fs.statSync(entry).mtimeMs > BUILD_CACHE_MAX_AGE_MS) fs.rmSync(entry, { recursive: true, force: true });
    } catch {
      // removed meanwhile by another run
    }
  }
}

const secret = () => crypto.randomBytes(16).toString('base64');

async function waitUntilServing(baseUrl: string, server: ChildProcess, log: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) {
      throw new Error(`scripts/start.js ended with ${server.exitCode ?? server.signalCode} before serving:\n${log().slice(-4000)}`);
    }
    try {
      const response = await fetch(`${baseUrl}/_health`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 204 || response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`scripts/start.js did not answer ${baseUrl}/_health within ${timeoutMs} ms:\n${log().slice(-4000)}`);
}

/** A new temporary folder for one run; the caller removes it (also when the build never ended). */
export function createWorkFolder(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-browser-'));
}

/** Copies and builds the app (`npm run build`) in `folder`, then starts it in production on a free port. */
export async function startProductionApp(folder: string): Promise<ProductionApp> {
  const appDir = path.join(folder, 'app');
  const buildLog = path.join(folder, 'build.log');
  const serverLogFile = path.join(folder, 'server.log');
  const files = sourceFiles();
  copyApp(appDir, files);
  const key = buildKey(files);

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // Production as Strapi documents it: built and served with NODE_ENV=production (the app's config
  // then needs every secret, at build time too). Without NODE_ENV, `strapi build` makes a
  // development admin bundle; Jest's NODE_ENV=test would make a test one.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    STRAPI_TELEMETRY_DISABLED: 'true',
    HOST: '127.0.0.1',
    PORT: String(port),
    // Production requires the public address every link is built on: here, the test's own.
    PUBLIC_URL: baseUrl,
    LOG_LEVEL: 'error',
    STUDIO_NAME,
    DATABASE_CLIENT: 'sqlite',
    DATABASE_FILENAME: path.join(folder, 'data.db'),
    SITE_ARTICLE_URL: '', // no public site: the admin's preview shows the service's own page
    SITE_PREVIEW_URL: '',
    APP_KEYS: [secret(), secret()].join(','),
    API_TOKEN_SALT: secret(),
    ADMIN_JWT_SECRET: secret(),
    TRANSFER_TOKEN_SALT: secret(),
    ENCRYPTION_KEY: secret(),
    JWT_SECRET: secret(),
  };
  const buildStarted = Date.now();
  const buildReused = reuseBuild(key, appDir);
  if (buildReused) {
    fs.writeFileSync(buildLog, `Reused the build of these sources kept as ${BUILD_CACHE_PREFIX}${key} in ${os.tmpdir()}.\n`);
  } else {
    await run('npm', ['run', 'build'], appDir, env, buildLog, folder);
    keepBuild(key, appDir);
  }
  const buildMs = Date.now() - buildStarted;

  const out = fs.openSync(serverLogFile, 'a');
  const startStarted = Date.now();
  // Started as `npm start` starts it (V8's heap cap), which the build above must not get.
  const server = spawn(process.execPath, [serviceStartScript(appDir)], {
    cwd: appDir,
    env: { ...env, NODE_OPTIONS: serviceNodeOptions() },
    detached: true,
    stdio: ['ignore', out, out],
  });
  children.add(server);
  watchGroup(server, folder);
  server.once('exit', () => children.delete(server));
  const serverLog = () => fs.readFileSync(serverLogFile, 'utf8');
  await waitUntilServing(baseUrl, server, serverLog, 180_000);
  const startMs = Date.now() - startStarted;

  return {
    appDir,
    baseUrl,
    buildMs,
    buildReused,
    startMs,
    serverLog,
    stop: async () => {
      await stopChild(server);
      fs.closeSync(out);
    },
  };
}
