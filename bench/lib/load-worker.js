// @ts-check
'use strict';

// The load generator, run in its own process (bench/lib/load-client.js forks it) so that
// autocannon never shares a CPU thread with the server it measures. With several ports (two
// instances of a server) it is still one autocannon: given one URL per port, autocannon hands its
// connections out round-robin (connection i goes to URL i mod n), and every figure (requests/s, p50,
// p99) comes from one run over all of them, so the percentiles are those of all requests together.

const autocannon = require('autocannon');
const { drain } = require('./http-get');

/** Rotates over the paths across all connections (of all ports), so a run spreads over many slugs and words. */
/**
 * @param {string[]} paths
 * @param {number} startAt
 * @returns {import('autocannon').Request[]}
 */
function rotatingRequests(paths, startAt) {
  let next = startAt;
  return [
    {
      method: 'GET',
      setupRequest(request) {
        request.path = paths[next % paths.length];
        next += 1;
        return request;
      },
    },
  ];
}

/**
 * @param {{ ports: number[], paths: string[], connections: number, seconds?: number, amount?: number, startAt: number, timeoutSeconds?: number }} run
 * @returns {Promise<any>} autocannon's result
 */
function runOnce({ ports, paths, connections, seconds, amount, startAt, timeoutSeconds = 30 }) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        // autocannon takes one URL per port (round-robin); @types/autocannon only knows a single string.
        url: /** @type {string} */ (/** @type {unknown} */ (ports.map((port) => `http://127.0.0.1:${port}`))),
        connections,
        ...(amount === undefined ? { duration: seconds } : { amount }),
        pipelining: 1,
        timeout: timeoutSeconds,
        requests: rotatingRequests(paths, startAt),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

function summarize(result, connections) {
  // No answer within the window (stock Strapi searching 100,000 articles): the rate was below one
  // answer per connection per window, so that bound is reported, flagged, instead of a zero.
  const slowerThanWindow = result.requests.total === 0 && result.errors === 0 && result.non2xx === 0;
  const windowMs = Math.round(result.duration * 1000);
  const latency = slowerThanWindow ? { p50: windowMs, p99: windowMs, average: windowMs } : result.latency;
  return {
    rps: slowerThanWindow ? connections / result.duration : result.requests.average,
    p50: latency.p50,
    p99: latency.p99,
    latencyMean: latency.average,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count])),
    seconds: result.duration,
    slowerThanWindow,
  };
}

/**
 * What load-client.js sends.
 * @typedef {{ ports: number[], paths: string[], connections: number, seconds: number, warmupSeconds: number,
 *   visitEveryPath?: boolean, drainPath?: string, onlyVisit?: boolean }} LoadJob
 */

/**
 * Reports to the parent (load-client.js forks this file, so there is an IPC channel) and exits.
 * @param {object} message
 * @param {number} code
 */
function report(message, code) {
  if (!process.send) throw new Error('bench/lib/load-worker.js runs only as a child of bench/lib/load-client.js');
  process.send(message, () => process.exit(code));
}

process.on('message', async (message) => {
  const job = /** @type {LoadJob} */ (message);
  try {
    // A flood: every path exactly once (spread over the connections), measured as one run.
    if (job.onlyVisit) {
      const result = await runOnce({ ...job, amount: job.paths.length, startAt: 0 });
      report({ type: 'result', result: summarize(result, job.connections) }, 0);
      return;
    }
    // Warm-up: every path once on every instance (each instance's caches see each slug and word
    // before it is measured, as a live site's would; spread over the instances, each would see only
    // some), then --warmup seconds for the JIT and the database's page cache; its figures are thrown away.
    if (job.visitEveryPath) {
      for (const port of job.ports)
        await runOnce({ ...job, ports: [port], amount: Math.max(job.paths.length, job.connections), startAt: 0 });
    }
    if (job.warmupSeconds > 0) await runOnce({ ...job, seconds: job.warmupSeconds, startAt: 0 });
    // The warm-up's last requests are still running on the server; the measurement starts after them.
    const { drainPath } = job;
    if (drainPath) await Promise.all(job.ports.map((port) => drain(port, drainPath)));
    const result = await runOnce({ ...job, seconds: job.seconds, startAt: Math.floor(job.paths.length / 2) });
    report({ type: 'result', result: summarize(result, job.connections) }, 0);
  } catch (error) {
    report({ type: 'error', message: String((error instanceof Error && error.stack) || error) }, 1);
  }
});
