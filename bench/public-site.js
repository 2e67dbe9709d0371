// @ts-check
'use strict';

// node bench/public-site.js [--articles 100000]: what the public site's feeds and sitemap cost on a
// large archive. Seeds (or reuses) the benchmark's SQLite file, starts the service on it (API only,
// SITE_ARTICLE_URL set) and, for each feed and sitemap path, times the first request (computed) and
// the second (from the read cache): time to first byte, total time, bytes plain and gzip-compressed,
// and the server's resident memory before, after, and at its peak. Needs a compiled app in dist/
// (`npm run build`, or any test run).
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { parseArgs } = require('./lib/args');
const { freePort, startServer, stopServer } = require('./lib/server-process');
const { APP_DIR, DATA_DIR, OURS_START, RESULTS_DIR, serverEnv } = require('./lib/server-env');
const { seed } = require('./seed');
const { sqliteStore } = require('./lib/store');

const PATHS = [
  '/api/artikel/feed/rss',
  '/api/artikel/feed/atom',
  '/api/artikel/feed/json',
  '/api/artikel/sitemap.xml',
  '/api/artikel/sitemap/1',
  '/api/artikel/sitemap/2',
];

function timedGet(port, urlPath, encoding) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const ms = () => Number(process.hrtime.bigint() - started) / 1e6;
    const request = http.get({ host: '127.0.0.1', port, path: urlPath, headers: { 'Accept-Encoding': encoding } }, (response) => {
      const firstByteMs = ms();
      let bytes = 0;
      response.on('data', (chunk) => {
        bytes += chunk.length;
      });
      response.on('end', () =>
        resolve({
          status: response.statusCode,
          firstByteMs,
          totalMs: ms(),
          bytes,
          encoding: response.headers['content-encoding'] ?? 'identity',
        }),
      );
    });
    request.on('error', reject);
  });
}

/** Resident and peak resident memory of a process, in MB (Linux /proc). */
function memory(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
  return { rssMb: Math.round(field('VmRSS')), peakMb: Math.round(field('VmHWM')) };
}

async function main() {
  const options = parseArgs(process.argv.slice(2), { articles: 100000 });
  if (!fs.existsSync(path.join(APP_DIR, 'dist', 'src', 'plugins', 'artikel', 'server', 'src', 'index.js')))
    throw new Error('No build in dist/: run `npm run build` first.');
  const seeded = await seed({ articles: options.articles });
  const port = await freePort();
  const server = await startServer({
    name: 'ours',
    command: process.execPath,
    args: OURS_START,
    cwd: APP_DIR,
    env: serverEnv({
      store: sqliteStore(seeded.database),
      port,
      extra: { SERVE_ADMIN_PANEL: 'false', SITE_ARTICLE_URL: 'https://studio.example/artikel/{slug}', ARTIKEL_CACHE_MAX_AGE: '60' },
    }),
    readyPath: '/api/artikel/latest',
    logFile: path.join(DATA_DIR, 'logs', 'public-site.log'),
    readyTimeoutMs: (300 + options.articles / 50) * 1000,
  });
  const results = { articles: options.articles, published: seeded.published, memoryAtStart: memory(server.child.pid), paths: {} };
  try {
    for (const urlPath of PATHS) {
      const first = await timedGet(port, urlPath, 'identity');
      const cached = await timedGet(port, urlPath, 'identity');
      const gzip = await timedGet(port, urlPath, 'gzip');
      results.paths[urlPath] = { status: first.status, first, cached, gzipBytes: gzip.bytes, memoryAfter: memory(server.child.pid) };
      process.stdout.write(
        `${urlPath.padEnd(28)} ${first.status}  first: TTFB ${first.firstByteMs.toFixed(0)} ms, all ${first.totalMs.toFixed(0)} ms; cached: TTFB ${cached.firstByteMs.toFixed(1)} ms; ` +
          `${(first.bytes / 1024).toFixed(0)} KB plain, ${(gzip.bytes / 1024).toFixed(0)} KB gzip; server RSS ${memory(server.child.pid).rssMb} MB\n`,
      );
    }
    results.memoryAtEnd = memory(server.child.pid);
  } finally {
    await stopServer(server);
  }
  process.stdout.write(
    `Server memory: ${results.memoryAtStart.rssMb} MB at start, ${results.memoryAtEnd.rssMb} MB at the end, peak ${results.memoryAtEnd.peakMb} MB.\n`,
  );
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, `public-site-${options.articles}.json`), `${JSON.stringify(results, null, 2)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
