// @ts-check
'use strict';

const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { httpGet } = require('./http-get');

/** A port the system just handed out; closed again so the server child can take it. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function tail(file, lines = 30) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/**
 * Starts one server as a child process with its output in a log file, and resolves once
 * `readyPath` answers 200. The first start on a fresh database builds the plugin's indexes, so
 * the wait is long.
 */
/**
 * @param {{ name: string, command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, readyPath: string, logFile: string,
 *   readyTimeoutMs?: number, onWaiting?: (seconds: number) => void }} options
 */
async function startServer({ name, command, args, cwd, env, readyPath, logFile, readyTimeoutMs = 600000, onWaiting = () => {} }) {
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.openSync(logFile, 'w');
  const started = Date.now();
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  /** @typedef {{ code: number | null, signal: NodeJS.Signals | null }} Exit */
  /** @type {Exit | null} */
  let exited = null;
  const exit = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      resolve(exited);
    });
  });

  const fail = (message) => new Error(`${name}: ${message}\n--- last lines of ${logFile} ---\n${tail(logFile)}`);
  let nextNotice = started + 30000;
  for (;;) {
    if (Date.now() >= nextNotice) {
      onWaiting((Date.now() - started) / 1000);
      nextNotice += 30000;
    }
    // Set by the 'exit' listener, which TypeScript's flow analysis does not see (it keeps `exited` as null).
    const exitedNow = /** @type {Exit | null} */ (exited);
    if (exitedNow) throw fail(`exited before answering (code ${exitedNow.code}, signal ${exitedNow.signal})`);
    if (Date.now() - started > readyTimeoutMs) {
      await stopServer({ child, exit });
      throw fail(`did not answer ${readyPath} within ${readyTimeoutMs / 1000} s`);
    }
    try {
      const response = await httpGet(env.PORT, readyPath, { timeoutMs: 5000 });
      if (response.status === 200) break;
    } catch {
      // Not listening yet.
    }
    await sleep(250);
  }
  return { name, child, exit, port: Number(env.PORT), logFile, startedAt: started, startupSeconds: (Date.now() - started) / 1000 };
}

/** SIGTERM, then SIGKILL if the server has not exited after a grace period. */
async function stopServer(server, graceMs = 10000) {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), graceMs);
  await server.exit;
  clearTimeout(timer);
}

module.exports = { freePort, startServer, stopServer, sleep };
