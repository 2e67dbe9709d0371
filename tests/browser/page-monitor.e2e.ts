/**
 * The walk in editors-day.e2e.ts is only as strict as its PageMonitor: this proves, on a small
 * local page, that the monitor reports what must fail a step and lets through what is allowed.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { PageMonitor } from './support/monitor';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const PAGE = `<!doctype html><title>monitor check</title><script>
  Promise.all([
    fetch('/ok'),
    fetch('/missing'),
    fetch('/boom'),
    fetch('/admin/ai-feature-config'),
    fetch('https://api.github.com/repos/strapi/strapi/releases/latest').catch(() => null),
  ]).then(() => {
    console.error('something the app reports as an error');
    setTimeout(() => { throw new Error('an uncaught page error'); });
    document.title = 'done';
  });
</script>`;

const STATUS: Record<string, number> = {
  '/': 200,
  '/ok': 200,
  '/missing': 404,
  '/boom': 500,
  '/admin/ai-feature-config': 404,
  '/favicon.ico': 500,
};

let server: http.Server;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const status = STATUS[request.url ?? ''] ?? 404;
    response.writeHead(status, { 'Content-Type': request.url === '/' ? 'text/html' : 'application/json' });
    response.end(request.url === '/' ? PAGE : '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

async function visit(prepare: (monitor: PageMonitor) => void): Promise<{ problems: string[]; monitor: PageMonitor }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const monitor = new PageMonitor(origin);
  await monitor.attach(context, page);
  prepare(monitor);
  await page.goto(`${origin}/`);
  await page.waitForFunction("document.title === 'done'");
  await page.waitForTimeout(1_500); // the favicon and the uncaught error come a moment later
  const problems = monitor.takeProblems().map((problem) => `${problem.kind}: ${problem.text}`);
  await context.close();
  return { problems: problems.sort(), monitor };
}

describe('the page monitor of the browser suite', () => {
  it('reports 5xx answers (the favicon too), 4xx answers nobody allowed, console errors and page errors', async () => {
    const { problems, monitor } = await visit(() => undefined);
    expect(problems).toEqual([
      'console: something the app reports as an error (at ' + origin + '/)',
      expect.stringMatching(/^pageerror: Error: an uncaught page error/),
      `response: GET ${origin}/boom answered 500`,
      `response: GET ${origin}/favicon.ico answered 500`,
      `response: GET ${origin}/missing answered 404`,
    ]);
    expect([...monitor.allowedSeen.keys()]).toEqual(['GET ^\\/admin\\/ai-feature-config$ 404']);
    expect([...monitor.blockedExternal]).toEqual(['https://api.github.com/repos/strapi/strapi/releases/latest']);
  }, 60_000);

  it('does not report a 4xx the step says it expects', async () => {
    const { problems } = await visit((monitor) =>
      monitor.expect([{ method: 'GET', path: /^\/missing$/, status: 404, reason: 'this check asks for it' }]),
    );
    expect(problems.filter((problem) => problem.includes('/missing'))).toEqual([]);
  }, 60_000);
});
