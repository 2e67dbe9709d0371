// @ts-check
'use strict';

const path = require('node:path');
const { fork } = require('node:child_process');

const { DRAIN_TIMEOUT_MS } = require('./http-get');

const WORKER = path.join(__dirname, 'load-worker.js');

/**
 * Drives `paths` on 127.0.0.1 from a separate process and resolves with its summary. `ports` holds
 * one port per instance of the server; the connections are spread over them round-robin. With
 * `onlyVisit` each path is requested exactly once (a flood of distinct requests) and that is the run.
 * @param {{ ports: number[], paths: string[], connections: number, seconds?: number, warmupSeconds?: number,
 *   visitEveryPath?: boolean, drainPath?: string, onlyVisit?: boolean, timeoutSeconds?: number }} job
 *   timeoutSeconds: how long one request may take before it counts as an error (autocannon's timeout; 30 by default)
 * @returns {Promise<any>} load-worker.js's summary of the run
 */
function runLoad({
  ports,
  paths,
  connections,
  seconds = 0,
  warmupSeconds = 0,
  visitEveryPath = true,
  drainPath,
  onlyVisit = false,
  timeoutSeconds = 30,
}) {
  return new Promise((resolve, reject) => {
    const worker = fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let settled = false;
    const settle = (fn, value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn(value);
    };
    // autocannon ends on its own; this only guards against a worker that hangs.
    const timer = setTimeout(
      () => {
        worker.kill('SIGKILL');
        settle(reject, new Error('the load worker did not finish in time'));
      },
      (onlyVisit ? DRAIN_TIMEOUT_MS : (seconds + warmupSeconds + 2 * timeoutSeconds) * 1000) + (drainPath ? DRAIN_TIMEOUT_MS : 0),
    );
    worker.on('message', (/** @type {any} */ message) => {
      if (message.type === 'result') settle(resolve, message.result);
      else settle(reject, new Error(`load worker: ${message.message}`));
    });
    worker.on('exit', (code) => settle(reject, new Error(`the load worker exited with code ${code} before reporting`)));
    worker.send({ ports, paths, connections, seconds, warmupSeconds, visitEveryPath, drainPath, onlyVisit, timeoutSeconds });
  });
}

module.exports = { runLoad };
