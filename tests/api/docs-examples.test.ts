import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { serviceDatabaseEnv } from '../helpers/service-process';
import { startStrapi, type TestApp } from '../helpers/strapi';

/**
 * Every example of README.md and docs/api.md, run in order on a fresh demo (npm run seed), as a
 * reader pastes them: each shell block's commands are sent with Node's fetch(), and the block that
 * follows it (a JSON answer, or an `-i` answer's status line, headers and body) is compared with
 * the last command's answer. A value "…" (or a key "…") stands for anything; a string holding "…"
 * matches a string holding its parts in order; an array ending in "…" or { "…": … } matches any
 * longer one that begins alike.
 */
const APP_DIR = path.resolve(__dirname, '..', '..');
const run = promisify(execFile);
const DOCUMENTS = ['README.md', 'docs/api.md'];

interface Example {
  document: string;
  line: number;
  commands: string[];
  expected: { kind: 'json' | 'http'; text: string } | null;
}

/** The shell blocks that call the service, each with the fenced block right after it (if any). */
function examplesOf(document: string): Example[] {
  const lines = fs.readFileSync(path.join(APP_DIR, document), 'utf8').split('\n');
  const examples: Example[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    if (lines[index].trim() !== '```sh') continue;
    const start = index + 1;
    let end = start;
    while (lines[end].trim() !== '```') end += 1;
    const shell = lines
      .slice(start, end)
      .join('\n')
      .replace(/\\\n\s*/g, ' ');
    const commands = shell
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    index = end;
    let next = end + 1;
    while (next < lines.length && lines[next].trim() === '') next += 1;
    let expected: Example['expected'] = null;
    const fence = lines[next]?.trim();
    if (fence === '```json' || fence === '```') {
      let close = next + 1;
      while (lines[close].trim() !== '```') close += 1;
      expected = { kind: fence === '```json' ? 'json' : 'http', text: lines.slice(next + 1, close).join('\n') };
      index = close;
    }
    if (commands.some((command) => command.includes('localhost:1337'))) examples.push({ document, line: start, commands, expected });
  }
  return examples;
}

/** The words of a shell command line, quotes removed ('…' literal, "…" with $NAME expanded). */
function words(command: string, variables: Record<string, string>): string[] {
  const found: string[] = [];
  const pattern = /'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g;
  for (const match of command.matchAll(pattern)) {
    const expand = (text: string) => text.replace(/\$(\w+)/g, (_whole, name: string) => variables[name] ?? '');
    found.push(match[1] ?? expand(match[2] ?? match[3]));
  }
  return found;
}

interface Answer {
  status: number;
  statusText: string;
  headers: Headers;
  text: string;
}

async function curl(command: string, base: string, variables: Record<string, string>): Promise<Answer> {
  const args = words(command, variables).slice(1);
  let method = 'GET';
  let url = '';
  let body: string | undefined;
  const headers: Record<string, string> = {};
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index];
    if (arg === '-X') method = args[++index];
    else if (arg === '-H') {
      const header = args[++index];
      const colon = header.indexOf(':');
      headers[header.slice(0, colon)] = header.slice(colon + 1).trim();
    } else if (arg === '-d') {
      body = args[++index];
      if (method === 'GET') method = 'POST';
    } else if (arg === '-sI' || arg === '-I') method = 'HEAD';
    else if (!arg.startsWith('-')) url = arg;
  }
  const response = await fetch(url.replace('http://localhost:1337', base), { method, headers, body, redirect: 'manual' });
  return { status: response.status, statusText: response.statusText, headers: response.headers, text: await response.text() };
}

/** Runs one command line; returns the answer of a curl. */
async function runCommand(command: string, app: TestApp, base: string, variables: Record<string, string>): Promise<Answer | null> {
  const token = /^(\w+)=\$\((?:ARTIKEL_TOKEN_ACTIONS=([\w,]+) )?npm run -s token(?: -- (\S+))?\)/.exec(command);
  if (token !== null) {
    // What scripts/create-api-token.js makes: a custom token holding these actions, under this name.
    const permissions = (token[2] ?? 'create').split(',').map((action) => `plugin::artikel.artikel.${action}`);
    const service = app.strapi.service('admin::api-token') as unknown as {
      create: (attributes: object) => Promise<{ accessKey: string }>;
    };
    const name = token[3] ?? `automation-${Object.keys(variables).length}`;
    variables[token[1]] = (await service.create({ name, description: '', type: 'custom', lifespan: null, permissions })).accessKey;
    return null;
  }
  const etag = /^(\w+)=\$\((curl -sI [^|]+)\|/.exec(command);
  if (etag !== null) {
    const answer = await curl(etag[2], base, variables);
    variables[etag[1]] = answer.headers.get('etag') ?? '';
    return null;
  }
  if (command.startsWith('curl ')) return curl(command, base, variables);
  throw new Error(`a command the docs test cannot run: ${command}`);
}

/** The JSON of a documented answer: valid JSON in which "…" may stand for a value. */
const documentedJson = (text: string): unknown => JSON.parse(text.replace(/\[…\]/g, '["…"]').replace(/:\s*…/g, ': "…"'));

function matches(expected: unknown, actual: unknown, where: string, problems: string[]): void {
  if (expected === '…') return;
  if (typeof expected === 'string' && expected.includes('…')) {
    if (typeof actual !== 'string')
      return void problems.push(`${where}: expected text like ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
    let from = 0;
    for (const part of expected.split('…')) {
      const at = actual.indexOf(part, from);
      if (at === -1) return void problems.push(`${where}: expected text like ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
      from = at + part.length;
    }
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return void problems.push(`${where}: expected a list, got ${JSON.stringify(actual)}`);
    const last = expected.at(-1);
    const open = last === '…' || (typeof last === 'object' && last !== null && '…' in last && Object.keys(last).length === 1);
    const shown = open ? expected.slice(0, -1) : expected;
    if (open ? actual.length < shown.length : actual.length !== shown.length)
      problems.push(`${where}: expected ${open ? 'at least ' : ''}${shown.length} items, got ${actual.length}`);
    shown.forEach((item, index) => matches(item, actual[index], `${where}[${index}]`, problems));
    return;
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null)
      return void problems.push(`${where}: expected an object, got ${JSON.stringify(actual)}`);
    for (const [key, value] of Object.entries(expected)) {
      if (key === '…') continue;
      if (!(key in actual)) problems.push(`${where}.${key}: missing`);
      else matches(value, (actual as Record<string, unknown>)[key], `${where}.${key}`, problems);
    }
    return;
  }
  if (expected !== actual) problems.push(`${where}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

/** What differs between an answer and the documented one; empty when it is as documented. */
function differences(documented: NonNullable<Example['expected']>, answer: Answer, base: string): string[] {
  const problems: string[] = [];
  // Links are built on the address the request came to: the docs' localhost:1337 is this service's.
  const expected = { ...documented, text: documented.text.replaceAll('http://localhost:1337', base) };
  if (expected.kind === 'json') {
    const body = JSON.parse(answer.text) as unknown;
    matches(documentedJson(expected.text), body, 'body', problems);
    return problems;
  }
  const [head, ...rest] = expected.text.split('\n\n');
  const [statusLine, ...headerLines] = head.split('\n');
  const status = Number(/^HTTP\/[\d.]+ (\d{3})/.exec(statusLine)?.[1]);
  if (status !== answer.status) problems.push(`status: expected ${status}, got ${answer.status}`);
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon);
    const value = line.slice(colon + 1).trim();
    const actual = answer.headers.get(name);
    if (actual === null) problems.push(`header ${name}: missing`);
    // An ETag is the version's: shown as one looks, compared as present.
    else if (name.toLowerCase() !== 'etag') matches(value, actual, `header ${name}`, problems);
  }
  const shownBody = rest.join('\n\n').trim();
  if (shownBody.startsWith('{')) matches(documentedJson(shownBody), JSON.parse(answer.text), 'body', problems);
  else if (shownBody !== '') matches(shownBody, answer.text.trim(), 'body', problems);
  return problems;
}

let app: TestApp;
let folder: string;

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-docs-'));
  const databaseFile = path.join(folder, 'data.db');
  // The demo, as npm run seed makes it, on this test's own database.
  await run(process.execPath, [path.join(APP_DIR, 'scripts', 'seed-demo.js')], {
    cwd: APP_DIR,
    env: { ...process.env, ...(await serviceDatabaseEnv(databaseFile)), LOG_LEVEL: 'error' },
  });
  // The demo's defaults, as a newcomer's service has them (the suite names its studio otherwise).
  app = await startStrapi({ databaseFile, env: { STUDIO_NAME: undefined } });
}, 300_000);

afterAll(async () => {
  await app?.stop();
  fs.rmSync(folder, { recursive: true, force: true });
});

it('every example of README.md and docs/api.md, run in order on a fresh demo, answers as the docs show', async () => {
  const base = await app.baseUrl();
  const variables: Record<string, string> = {};
  const report: string[] = [];
  let compared = 0;
  for (const example of DOCUMENTS.flatMap(examplesOf)) {
    let last: Answer | null = null;
    for (const command of example.commands) last = (await runCommand(command, app, base, variables)) ?? last;
    if (last !== null && last.status >= 500) report.push(`${example.document}:${example.line}: answered ${last.status}`);
    if (example.expected === null || last === null) continue;
    compared += 1;
    for (const problem of differences(example.expected, last, base)) report.push(`${example.document}:${example.line}: ${problem}`);
  }
  process.stdout.write(`[docs] ${compared} documented answers compared\n`);
  expect(report).toEqual([]);
  expect(compared).toBeGreaterThanOrEqual(12);
}, 300_000);
