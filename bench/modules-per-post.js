// @ts-check
'use strict';

// How many of the plugin's modules one POST /api/artikel runs code in: the app is compiled into a
// folder of its own and served in this process, V8's precise coverage counts every function's
// calls, and the plugin's compiled files with a function called during one POST (after a warm-up
// POST, counters reset) are listed. Issue "One door": a POST crosses at most 40 of them.
//
//   node bench/modules-per-post.js [--functions]   (--functions: each module's called functions, with counts)

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const inspector = require('node:inspector/promises');

const APP_DIR = path.resolve(__dirname, '..');
const PLUGIN_SERVER = `${path.sep}src${path.sep}plugins${path.sep}artikel${path.sep}server${path.sep}src${path.sep}`;

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'artikel-modules-'));
  // Inside the app's folder, where the compiled code finds node_modules.
  const distDir = path.join(APP_DIR, '.tmp', 'bench-modules-dist');
  fs.rmSync(distDir, { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-p', path.join(APP_DIR, 'tsconfig.json'), '--outDir', distDir, '--incremental', 'false'],
    {
      stdio: 'inherit',
    },
  );
  Object.assign(process.env, {
    ARTIKEL_DIST_DIR: distDir,
    DATABASE_FILENAME: path.join(work, 'data.db'),
    STRAPI_TELEMETRY_DISABLED: 'true',
    LOG_LEVEL: 'error',
    ARTIKEL_RATE_LIMIT: '0',
  });
  const { createStrapi } = require('@strapi/strapi');
  const strapi = await createStrapi({ appDir: APP_DIR, distDir }).load();
  await strapi.server.mount();
  await new Promise((resolve) => strapi.server.httpServer.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = /** @type {import('node:net').AddressInfo} */ (strapi.server.httpServer.address());
  const { port } = address;
  const token = (await strapi.service('admin::api-token').create({ name: 'modules', description: '', type: 'full-access', lifespan: null }))
    .accessKey;
  let n = 0;
  const post = async () => {
    n += 1;
    const response = await fetch(`http://127.0.0.1:${port}/api/artikel`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': `modules-${n}` },
      body: JSON.stringify({ title: `Modules ${n}`, category: 'Studio', content: 'One **POST**, counted.', tags: 'Bench, Modules' }),
    });
    if (response.status !== 201) throw new Error(`POST answered ${response.status}`);
  };
  const session = new inspector.Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  await post();
  await session.post('Profiler.takePreciseCoverage'); // resets the counters
  await post();
  const { result } = await session.post('Profiler.takePreciseCoverage');
  const crossed = result
    .filter((script) => script.url.includes(PLUGIN_SERVER) && script.functions.some((fn) => fn.ranges.some((range) => range.count > 0)))
    .map((script) => script.url.slice(script.url.indexOf(PLUGIN_SERVER) + PLUGIN_SERVER.length))
    .sort();
  await session.post('Profiler.stopPreciseCoverage');
  session.disconnect();
  process.stdout.write(
    `${crossed.length} of the plugin's modules run code during one POST /api/artikel:\n${crossed.map((file) => `  ${file}`).join('\n')}\n`,
  );
  if (process.argv.includes('--functions')) {
    for (const script of result.filter((each) => each.url.includes(PLUGIN_SERVER))) {
      const called = script.functions
        .map((fn) => ({ name: fn.functionName || '(anonymous)', count: fn.ranges[0]?.count ?? 0 }))
        .filter((fn) => fn.count > 0 && fn.name !== '');
      if (called.length === 0) continue;
      const file = script.url.slice(script.url.indexOf(PLUGIN_SERVER) + PLUGIN_SERVER.length);
      process.stdout.write(`${file}: ${called.map((fn) => `${fn.name}×${fn.count}`).join(', ')}\n`);
    }
  }
  await strapi.destroy();
  fs.rmSync(work, { recursive: true, force: true });
  fs.rmSync(distDir, { recursive: true, force: true });
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
