import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { PageMonitor } from './monitor';

export const ARTIFACTS = path.join(__dirname, '..', 'artifacts');
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

/** How long a save, publish or restore may take before its notice: past the 60 s a stuck SQLite transaction takes to fail. */
export const NOTICE_MS = 90_000;

/** One headless Chromium with one page on the service, watched by a PageMonitor. */
export interface BrowserSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  monitor: PageMonitor;
  close: () => Promise<void>;
}

export async function openBrowser(baseUrl: string): Promise<BrowserSession> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, locale: 'en-US' });
  context.setDefaultTimeout(30_000);
  context.setDefaultNavigationTimeout(60_000);
  const page = await context.newPage();
  const monitor = new PageMonitor(baseUrl);
  await monitor.attach(context, page);
  return { browser, context, page, monitor, close: () => browser.close().catch(() => undefined) };
}

/**
 * Waits for the admin's notice: the success text, or fails with the text of an error notice (so a
 * server error reads as such, not as a timeout). Closes it, so the next identical one is a new one.
 */
export async function expectNotice(page: Page, text: string, timeout = NOTICE_MS): Promise<void> {
  const region = page.getByRole('region', { name: /^Notifications/ });
  const success = region
    .getByRole('listitem')
    .filter({ has: page.getByRole('status').filter({ hasText: text }) })
    .first();
  const failure = region.getByRole('alert').first();
  const outcome = await Promise.race([
    success.waitFor({ timeout }).then(
      () => 'success' as const,
      () => 'timeout' as const,
    ),
    failure.waitFor({ timeout }).then(
      () => 'failure' as const,
      () => 'timeout' as const,
    ),
  ]);
  if (outcome === 'failure') throw new Error(`expected the notice "${text}", the admin showed the error "${await failure.innerText()}"`);
  if (outcome === 'timeout') throw new Error(`no notice "${text}" within ${timeout} ms`);
  // On a loaded machine the notice may close itself (after a few seconds) before the click lands:
  // gone either way is what the next action needs.
  await success
    .getByRole('button', { name: 'Close' })
    .click({ timeout: 5_000 })
    .catch(() => undefined);
  await success.waitFor({ state: 'detached' });
}

export interface StepTiming {
  step: number;
  name: string;
  ms: number;
  passed: boolean;
}

/**
 * A registrar of ordered steps for one browser file: each step is a Jest test named by the behaviour
 * it shows, failing on its own assertions and on anything unexpected the monitor saw meanwhile (a
 * 5xx, a 4xx not allowed, a page or console error), and always leaving a screenshot named
 * `<prefix>-<nn>-<name>.png` (`.failed.png` on failure). A step stops itself before Jest's timeout
 * so that the failure screenshot is taken.
 */
export function stepsWith(prefix: string, session: () => BrowserSession | undefined) {
  const timings: StepTiming[] = [];
  let count = 0;
  const step = (name: string, budgetMs: number, body: (page: Page) => Promise<void>): void => {
    count += 1;
    const number = count;
    const file = `${prefix}-${String(number).padStart(2, '0')}-${name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60)}`;
    it(
      name,
      async () => {
        const open = session();
        if (!open) throw new Error('the service or the browser did not start (see beforeAll)');
        const { page, monitor } = open;
        const started = Date.now();
        let failure: unknown;
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            body(page),
            new Promise((_, reject) => {
              timer = setTimeout(() => reject(new Error(`step took longer than its budget of ${budgetMs} ms`)), budgetMs);
            }),
          ]);
          await page.waitForTimeout(500); // the step's last requests answer before they are judged
        } catch (error) {
          failure = error;
        } finally {
          clearTimeout(timer);
        }
        const ms = Date.now() - started;
        const problems = monitor.takeProblems();
        const passed = failure === undefined && problems.length === 0;
        timings.push({ step: number, name, ms, passed });
        fs.mkdirSync(ARTIFACTS, { recursive: true });
        await page
          .screenshot({ path: path.join(ARTIFACTS, `${file}${passed ? '' : '.failed'}.png`), fullPage: true })
          .catch(() => undefined);
        const unexpected = problems.map((problem) => `- ${problem.kind}: ${problem.text}`).join('\n');
        if (failure !== undefined) {
          if (unexpected && failure instanceof Error)
            failure.message += `\n\nAlso unexpected in the browser during this step:\n${unexpected}`;
          throw failure;
        }
        if (unexpected) throw new Error(`Unexpected in the browser during this step:\n${unexpected}`);
      },
      budgetMs + 30_000,
    );
  };
  return { step, timings };
}

/** Removes this file's artifacts of an earlier run (and only those: other browser files keep theirs in the same folder). */
export function clearArtifacts(prefix: string): void {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  for (const name of fs.readdirSync(ARTIFACTS)) if (name.startsWith(`${prefix}-`)) fs.rmSync(path.join(ARTIFACTS, name), { force: true });
}
