'use strict';

// The load generator, run in its own process (bench/lib/load-client.js forks it) so that
// autocannon never shares a CPU thread with the server it measures.

const autocannon = require('autocannon');
const { drain } = require('./http-get');

/** Rotates over the paths across all connections, so a run spreads over many slugs and words. */
function rotatingRequests(paths, startAt) {
  let next = startAt;
  return [{
    method: 'GET',
    setupRequest(request) {
      request.path = paths[next % paths.length];
      next += 1;
      return request;
    },
  }];
}

function runOnce({ port, paths, connections, seconds, amount, startAt }) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `http://127.0.0.1:${port}`,
        connections,
        ...(amount === undefined ? { duration: seconds } : { amount }),
        pipelining: 1,
        timeout: 30,
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

process.on('message', async (job) => {
  try {
    // Warm-up: every path once (a server's caches see each slug and word before it is measured,
    // as a live site's would), then --warmup seconds for the JIT and the SQLite page cache; its
    // figures are thrown away.
    if (job.visitEveryPath) await runOnce({ ...job, amount: Math.max(job.paths.length, job.connections), startAt: 0 });
    if (job.warmupSeconds > 0) await runOnce({ ...job, seconds: job.warmupSeconds, startAt: 0 });
    // The warm-up's last requests are still running on the server; the measurement starts after them.
    if (job.drainPath) await drain(job.port, job.drainPath);
    const result = await runOnce({ ...job, seconds: job.seconds, startAt: Math.floor(job.paths.length / 2) });
    process.send({ type: 'result', result: summarize(result, job.connections) }, () => process.exit(0));
  } catch (error) {
    process.send({ type: 'error', message: String(error?.stack ?? error) }, () => process.exit(1));
  }
});
