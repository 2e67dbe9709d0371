// @same-on-every-store: the commands' arguments, usage and output are the scripts' own; the tokens are rows of Strapi's own, written by its token services (not run by test:postgres, see jest.config.js)
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
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
  await removeServiceDatabase(path.join(folder, 'scripts.db'));
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

describe("the token commands' arguments", () => {
  const tokenCommand = (script: string, args: string[], databaseFile: string) =>
    serviceDatabaseEnv(databaseFile).then((database) =>
      run('node', [path.join(APP_DIR, 'scripts', script), ...args], { cwd: APP_DIR, env: { ...process.env, ...database } }).then(
        (result) => ({ ...result, code: 0 }),
        (error: { stdout: string; stderr: string; code: number }) => ({ stdout: error.stdout, stderr: error.stderr, code: error.code }),
      ),
    );

  it('print their usage for --help and -h, and create no token named after the option', async () => {
    const databaseFile = path.join(folder, 'help.db');
    for (const [script, args] of [
      ['create-api-token.js', ['--help']],
      ['create-api-token.js', ['-h']],
      ['create-admin-token.js', ['--help']],
    ] as const) {
      const answer = await tokenCommand(script, [...args], databaseFile);
      expect(answer).toMatchObject({ code: 0, stdout: expect.stringMatching(/^usage: npm run -s (mcp-)?token --/) });
      expect(answer.stdout).not.toMatch(/[0-9a-f]{64}/);
      expect(answer.stderr).not.toMatch(/loading Strapi/);
    }
    // Nothing loaded Strapi, so nothing made the database either.
    expect(fs.existsSync(databaseFile)).toBe(false);
  });

  it('refuse an option they do not know and one argument too many with exit code 2, naming it and the usage', async () => {
    const databaseFile = path.join(folder, 'refused.db');
    const unknown = await tokenCommand('create-api-token.js', ['--name', 'n8n'], databaseFile);
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toMatch(/^unknown option --name; the command takes no options\nusage: npm run -s token -- \[name\]/);
    const extra = await tokenCommand('create-admin-token.js', ['owner@studio.example', 'claude', 'desktop'], databaseFile);
    expect(extra).toMatchObject({ code: 2, stdout: '' });
    expect(extra.stderr).toMatch(/^too many arguments: "desktop" \(the command takes e-mail, then name\)\nusage: npm run -s mcp-token --/);
    expect(fs.existsSync(databaseFile)).toBe(false);
  });
});

/** Runs an npm script in the app folder as a newcomer pastes it (npm's own banner and all). */
const npmRun = (args: string[], env: NodeJS.ProcessEnv) =>
  run('npm', ['run', ...args], { cwd: APP_DIR, env }).then(
    (result) => ({ ...result, code: 0 }),
    (error: { stdout: string; stderr: string; code: number }) => ({ stdout: error.stdout, stderr: error.stderr, code: error.code }),
  );

describe('npm run -s token and npm run -s mcp-token', () => {
  const databaseFile = () => path.join(folder, 'scripts.db');

  it('refuses to print a token into a capture that npm fills with its banner, and says to add -s', async () => {
    const env = { ...process.env, ...(await serviceDatabaseEnv(databaseFile())) };
    const captured = await npmRun(['token'], env);
    expect(captured.code).toBe(2);
    expect(captured.stderr).toMatch(/run it as TOKEN=\$\(npm run -s token\)/);
    expect(captured.stdout).not.toMatch(/[0-9a-f]{64}/);
  });

  it('prints only the token with -s, and says on stderr what it may not do and how to get more', async () => {
    const env = { ...process.env, ...(await serviceDatabaseEnv(databaseFile())) };
    const printed = await npmRun(['-s', 'token'], env);
    expect(printed.code).toBe(0);
    expect(printed.stdout.trim()).toMatch(/^[0-9a-f]{64,}$/);
    expect(printed.stderr).toMatch(
      /may not update or delete articles; for a token that may: ARTIKEL_TOKEN_ACTIONS=create,update,delete npm run -s token/,
    );
  });

  it('makes an admin token for MCP clients with its owner’s role, and prints the client configuration to paste', async () => {
    const env = { ...process.env, ...(await serviceDatabaseEnv(databaseFile())) };
    let service = await startServiceProcess(databaseFile());
    try {
      const registered = await fetch(`${service.baseUrl}/admin/register-admin`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'owner@studio.example', firstname: 'Oki', lastname: 'Owner', password: 'Owner-Passw0rd' }),
      });
      expect(registered.status).toBe(200);
    } finally {
      await service.stop();
    }
    const made = await npmRun(['-s', 'mcp-token', '--', 'owner@studio.example', 'claude-desktop'], env);
    expect(made.code).toBe(0);
    const token = made.stdout.trim();
    expect(token).toMatch(/^[0-9a-f]{64,}$/);
    expect(made.stderr).toMatch(/"mcpServers"/);
    expect(made.stderr).toMatch(/\/mcp/);
    const unknown = await npmRun(['-s', 'mcp-token', '--', 'nobody@studio.example'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No administrator has the e-mail nobody@studio.example/);

    service = await startServiceProcess(databaseFile());
    try {
      const client = new Client({ name: 'token-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${service.baseUrl}/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
      );
      const names = (await client.listTools()).tools.map((tool) => tool.name).filter((name) => name.startsWith('artikel_'));
      expect(names).toEqual(expect.arrayContaining(['artikel_create', 'artikel_delete', 'artikel_get', 'artikel_update']));
      await client.close();
    } finally {
      await service.stop();
    }
  });
});
