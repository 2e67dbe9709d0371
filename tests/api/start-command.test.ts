// @same-on-every-store: what is checked is the start script's V8 options, its modules and its serving at all, whichever store the service starts on (not run by test:postgres, see jest.config.js)
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import packageJson from '../../package.json';
import { freePort } from '../helpers/ports';
import { procStatFields } from '../helpers/proc-stat';
import { removeServiceDatabase, serviceDatabaseEnv } from '../helpers/service-process';
import { testDistDir } from '../helpers/test-dist';

const APP_DIR = path.resolve(__dirname, '..', '..');
// A start took 6 to 9 s on this 2-core machine while idle; a loaded one gets well over 3× that.
const START_TIMEOUT_MS = 90_000;
const HEAP_CAP = `--max-old-space-size=${packageJson.config.heap_mb} --max-semi-space-size=${packageJson.config.semi_space_mb}`;

let folder: string;
let appCopy: string;

/**
 * `strapi start` serves the build in the app's dist/, which only `npm run build` makes. The suites
 * never touch dist/ (a running demo keeps its build), so npm start runs in a folder that links every
 * entry of the app but dist/, and links dist/ to the build the suite compiled.
 */
function appLinkedToTheSuitesBuild(into: string): string {
  const app = path.join(into, 'app');
  fs.mkdirSync(app);
  for (const entry of fs.readdirSync(APP_DIR)) {
    if (entry === 'dist') continue;
    fs.symlinkSync(path.join(APP_DIR, entry), path.join(app, entry));
  }
  fs.symlinkSync(testDistDir(), path.join(app, 'dist'));
  return app;
}

beforeAll(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-start-'));
  appCopy = appLinkedToTheSuitesBuild(folder);
});

afterAll(async () => {
  await removeServiceDatabase(path.join(folder, 'data.db'));
  fs.rmSync(folder, { recursive: true, force: true });
});

/** The processes of a process group (npm, its shell and node), from /proc. */
function processGroup(groupId: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        // Field 5: the process group.
        return Number(procStatFields(pid)[2]) === groupId;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** NODE_OPTIONS of the node process serving the app (scripts/start.js) in the group, as /proc shows its environment. */
function serverNodeOptions(groupId: number): string | undefined {
  for (const pid of processGroup(groupId)) {
    try {
      const commandLine = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      // Node's own argument, as npm's script passes it (npm's shell has the whole script as one argument).
      if (!commandLine.includes(path.join('scripts', 'start.js'))) continue;
      const environment = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      return environment.find((entry) => entry.startsWith('NODE_OPTIONS='))?.slice('NODE_OPTIONS='.length);
    } catch {
      // Gone meanwhile (npm's own short-lived children).
    }
  }
  return undefined;
}

async function untilServing(baseUrl: string, child: ChildProcess): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < START_TIMEOUT_MS) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    const status = await fetch(`${baseUrl}/api/artikel/latest`).then(
      (response) => response.status,
      () => null,
    );
    if (status !== null) return status;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`npm start did not answer within ${START_TIMEOUT_MS / 1000} s`);
}

/** Stops the whole group (npm, its shell and node) and waits for npm to exit. */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  const kill = setTimeout(() => process.kill(-(child.pid as number), 'SIGKILL'), 15_000);
  await exited;
  clearTimeout(kill);
}

/**
 * A module for `--require` that writes a file into `folder`, naming the process's arguments, once
 * Node's `domain` module is loaded (it sets EventEmitter.usingDomains as it loads).
 */
function domainWatch(folder: string): string {
  const file = path.join(folder, 'domain-watch.js');
  fs.writeFileSync(
    file,
    `const EventEmitter = require('node:events');
let using = EventEmitter.usingDomains;
Object.defineProperty(EventEmitter, 'usingDomains', {
  configurable: true,
  get: () => using,
  set: (value) => {
    using = value;
    require('node:fs').writeFileSync(${JSON.stringify(folder)} + '/domain-' + process.pid, process.argv.join(' '));
  },
});
`,
  );
  return file;
}

/** The environment npm start runs in: the test's own, the service's database, this port, and the operator's NODE_OPTIONS (none: undefined). */
async function startEnv(port: number, operatorOptions: string | undefined): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...(await serviceDatabaseEnv(path.join(folder, 'data.db'))),
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'error',
    // The suite compiles the TypeScript only; the admin panel's build is the browser test's.
    SERVE_ADMIN_PANEL: 'false',
  };
  delete env.NODE_OPTIONS;
  if (operatorOptions !== undefined) env.NODE_OPTIONS = operatorOptions;
  return env;
}

describe('npm start', () => {
  it.each([
    ['with no NODE_OPTIONS of the operator, caps V8 at package.json config.heap_mb and semi_space_mb', undefined, HEAP_CAP],
    [
      "with the operator's NODE_OPTIONS, passes them after the cap, so theirs win",
      '--max-old-space-size=512',
      `${HEAP_CAP} --max-old-space-size=512`,
    ],
  ])('serves the API, and %s', async (_case, operatorOptions, expectedOptions) => {
    const port = await freePort();
    const child = spawn('npm', ['start'], { cwd: appCopy, env: await startEnv(port, operatorOptions), detached: true, stdio: 'ignore' });
    try {
      const started = Date.now();
      expect(await untilServing(`http://127.0.0.1:${port}`, child)).toBe(200);
      process.stdout.write(`[operator] npm start answered after ${Date.now() - started} ms\n`);
      expect(serverNodeOptions(child.pid as number)?.trim()).toBe(expectedOptions);
    } finally {
      await stopGroup(child);
    }
  });

  it("serves without loading Node's domain module, which would wrap every EventEmitter of the process", async () => {
    const watched = fs.mkdtempSync(path.join(folder, 'watched-'));
    const port = await freePort();
    const env = await startEnv(port, `--require ${domainWatch(watched)}`);
    const child = spawn('npm', ['start'], { cwd: appCopy, env, detached: true, stdio: 'ignore' });
    try {
      expect(await untilServing(`http://127.0.0.1:${port}`, child)).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/api/artikel?q=lensa`)).status).toBe(200);
      // No process of the group but npm's own loaded domain, and the watch ran in the serving one.
      const loaders = fs
        .readdirSync(watched)
        .filter((name) => name.startsWith('domain-') && name !== 'domain-watch.js')
        .map((name) => fs.readFileSync(path.join(watched, name), 'utf8'));
      expect(loaders.filter((commandLine) => !commandLine.includes('npm-cli'))).toEqual([]);
      expect(serverNodeOptions(child.pid as number)).toContain('domain-watch.js');
    } finally {
      await stopGroup(child);
    }
  });
});
