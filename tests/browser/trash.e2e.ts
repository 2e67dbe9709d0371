/**
 * The trash in a real browser (issue 36), against a production build of the whole service: an
 * article deleted through the API waits in the admin's Trash page, named with the token that
 * deleted it; an editor restores it and it is served again; another is deleted forever, and the
 * trash is emptied, each after a confirmation. The steps build on each other and run in order.
 *
 * Run with `npx jest --config jest.browser.config.js --runInBand tests/browser/trash.e2e.ts`. The
 * screenshots are tests/browser/artifacts/trash-*.png (`trash-failed-*.png` when a step failed).
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createWorkFolder, startProductionApp, stopAllChildren, type ProductionApp } from './support/app';
import { PageMonitor } from './support/monitor';

const ARTIFACTS = path.join(__dirname, 'artifacts');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-sync',
];
/** Copy, `npm run build` (45-80 s measured on 2 busy cores) and start. */
const SETUP_MS = 20 * 60_000;
/** Each step takes 3-10 s; the budget is ten times that, so a slow machine is not a failure. */
const STEP_MS = 120_000;

const EDITOR = { firstname: 'Eda', lastname: 'Editor', email: 'eda@lichtbild.example', password: 'Lichtbild-2026' };
const TOKEN_NAME = 'n8n';
const AUTHOR = { email: 'ari@lichtbild.example', password: 'Lichtbild-Author-2026' };

let folder: string | undefined;
let app: ProductionApp | undefined;
let browser: Browser | undefined;
let page: Page;
let monitor: PageMonitor;
/** The editor's admin JWT (from the first-run registration) and the API token's plain key. */
let jwt = '';
let token = '';

const baseUrl = () => {
  if (!app) throw new Error('the service did not start (see beforeAll)');
  return app.baseUrl;
};

/** A call from the test process, as a client of the service makes it; the body parsed when it is JSON. */
async function call(
  method: string,
  pathname: string,
  options: { bearer?: string; body?: object } = {},
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${baseUrl()}${pathname}`, {
    method,
    headers: {
      ...(options.bearer ? { Authorization: `Bearer ${options.bearer}` } : {}),
      ...(options.body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: options.body ? JSON.stringify(options.body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: response.status, body: text };
  }
}

/** Posts an article with the token and deletes it again with the token: it is then in the trash. */
async function postAndDelete(title: string): Promise<string> {
  const posted = await call('POST', '/api/artikel', {
    bearer: token,
    body: { title, category: 'Weddings', content: `${title}: the light, the guests, the rain.` },
  });
  expect(posted.status).toBe(201);
  const { slug } = (posted.body as { data: { slug: string } }).data;
  expect((await call('DELETE', `/api/artikel/${slug}`, { bearer: token })).status).toBe(204);
  expect((await call('GET', `/api/artikel/${slug}`)).status).toBe(404);
  return slug;
}

/** A screenshot of the page at rest: CSS animations (a dialog fading in, a notice sliding down) shown finished. */
const screenshot = (name: string) =>
  page.screenshot({ path: path.join(ARTIFACTS, `trash-${name}.png`), fullPage: true, animations: 'disabled' });

/** Closes the notices a step left open, so the next step's screenshot shows only its own. */
async function closeNotices(): Promise<void> {
  const close = page.getByRole('region', { name: /^Notifications/ }).getByRole('button', { name: 'Close' });
  while ((await close.count()) > 0) {
    await close.first().click();
    await page.waitForTimeout(300); // the notice slides out before the next one is found
  }
}

/**
 * Waits for the admin's notice holding `text`; an error notice instead fails with its own text
 * (the service's message), not a timeout. Leaves the notice open for the screenshot.
 */
async function expectNotice(text: string | RegExp): Promise<void> {
  const region = page.getByRole('region', { name: /^Notifications/ });
  const success = region.getByRole('status').filter({ hasText: text }).first();
  const failure = region.getByRole('alert').first();
  const outcome = await Promise.race([
    success.waitFor({ timeout: 60_000 }).then(() => 'success' as const),
    failure.waitFor({ timeout: 60_000 }).then(() => 'failure' as const),
  ]);
  if (outcome === 'failure') throw new Error(`expected the notice "${String(text)}", the admin showed "${await failure.innerText()}"`);
}

const trashRow = (title: string) => page.getByRole('row').filter({ hasText: title });

async function openTrash(): Promise<void> {
  await page.getByRole('link', { name: 'Trash', exact: true }).click();
  await page.getByRole('heading', { name: 'Trash', level: 1 }).waitFor();
}

/**
 * One step: a test named by the behaviour it shows. Besides its assertions it fails on anything
 * unexpected in the browser meanwhile (a 5xx, a 4xx, a page or console error); a failed step leaves
 * a screenshot.
 */
function step(name: string, body: () => Promise<void>): void {
  it(
    name,
    async () => {
      if (!browser || !app) throw new Error('the service or the browser did not start (see beforeAll)');
      let failure: unknown;
      try {
        await body();
        await page.waitForTimeout(500); // the step's last requests answer before they are judged
      } catch (error) {
        failure = error;
      }
      const problems = monitor.takeProblems().map((problem) => `- ${problem.kind}: ${problem.text}`);
      if (failure !== undefined || problems.length > 0) {
        const file = name.replace(/[^a-z0-9]+/gi, '-').slice(0, 50);
        await page.screenshot({ path: path.join(ARTIFACTS, `trash-failed-${file}.png`), fullPage: true }).catch(() => undefined);
      }
      if (failure !== undefined) throw failure;
      if (problems.length > 0) throw new Error(`Unexpected in the browser during this step:\n${problems.join('\n')}`);
    },
    STEP_MS,
  );
}

beforeAll(async () => {
  // Only this file's screenshots: the other browser files keep theirs in the same folder.
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  for (const file of fs.readdirSync(ARTIFACTS)) if (file.startsWith('trash-')) fs.rmSync(path.join(ARTIFACTS, file));
  folder = createWorkFolder();
  app = await startProductionApp(folder);

  // The editor and the automation's token exist before the walk, as in a running studio.
  const registered = await call('POST', '/admin/register-admin', { body: EDITOR });
  expect(registered.status).toBe(200);
  jwt = (registered.body as { data: { token: string } }).data.token;
  const created = await call('POST', '/admin/api-tokens', {
    bearer: jwt,
    body: { name: TOKEN_NAME, description: 'Publishes from the booking workflow', type: 'full-access', lifespan: null },
  });
  expect(created.status).toBe(201);
  token = (created.body as { data: { accessKey: string } }).data.accessKey;

  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, locale: 'en-US' });
  context.setDefaultTimeout(30_000);
  context.setDefaultNavigationTimeout(60_000);
  page = await context.newPage();
  monitor = new PageMonitor(app.baseUrl);
  await monitor.attach(context, page);
}, SETUP_MS);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await app?.stop().catch(() => undefined);
  await stopAllChildren();
  if (folder) {
    if (fs.existsSync(path.join(folder, 'server.log')))
      fs.copyFileSync(path.join(folder, 'server.log'), path.join(ARTIFACTS, 'trash-server.log'));
    fs.rmSync(folder, { recursive: true, force: true });
  }
}, 60_000);

describe('the trash in the admin of a production build', () => {
  const deleted = { title: 'Rainy wedding at the boathouse', slug: '' };

  step('an editor signs in and chooses English on their profile page, and their browser asks no other host', async () => {
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(baseUrl()) && !request.url().startsWith('data:')) elsewhere.push(request.url());
    });
    await page.goto(`${baseUrl()}/admin/auth/login`);
    await page.locator('input[name="email"]').fill(EDITOR.email);
    await page.locator('input[name="password"]').fill(EDITOR.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(/\/admin\/?$/);
    // A new editor's admin speaks Indonesian; the steps below click by English names.
    await page.goto(`${baseUrl()}/admin/me`);
    await page.getByRole('combobox', { name: 'Bahasa antarmuka' }).click();
    await page.getByRole('option', { name: 'English', exact: true }).click();
    await page.getByRole('button', { name: 'Simpan' }).click();
    // A locator, not waitForFunction: the admin's Content Security Policy refuses evaluated strings.
    await page.locator('html[lang="en"]').waitFor({ state: 'attached' });
    await closeNotices();
    await page.getByRole('button', { name: 'Close the banner.' }).click();
    // Strapi's release check (api.github.com) is off: the admin talks to the service alone.
    expect(elsewhere).toEqual([]);
  });

  step("an article deleted through the API is listed in the Trash page, deleted by the token's name", async () => {
    deleted.slug = await postAndDelete(deleted.title);
    await openTrash();
    const row = trashRow(deleted.title);
    await row.waitFor();
    expect(await row.innerText()).toContain(deleted.slug);
    expect(await row.innerText()).toContain(`by API token ‘${TOKEN_NAME}’`);
    expect(await row.innerText()).toContain('was published');
    await screenshot('01-list');
  });

  step('an editor who restores it gets it back at its public address, with a link to its edit view', async () => {
    await trashRow(deleted.title).getByRole('button', { name: 'Restore' }).click();
    await expectNotice(`‘${deleted.title}’ is restored as it was`);
    await page.getByText('The trash is empty').waitFor();
    await page.getByRole('link', { name: 'Open the restored article' }).waitFor();
    await screenshot('02-restored');

    const read = await call('GET', `/api/artikel/${deleted.slug}`);
    expect(read.status).toBe(200);
    expect((read.body as { data: { title: string; status: string } }).data).toMatchObject({ title: deleted.title, status: 'published' });

    await page.getByRole('link', { name: 'Open the restored article' }).click();
    await page.getByRole('heading', { name: deleted.title, level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/\/content-manager\/collection-types\/api::article\.article\/[a-z0-9]+$/);
    await closeNotices();
  });

  step('an editor who deletes an article in the Content Manager is told it goes to the trash for 30 days, and finds it there', async () => {
    const title = 'Backdrop swatches for spring';
    const posted = await call('POST', '/api/artikel', {
      bearer: token,
      body: { title, category: 'Weddings', content: 'Six swatches, one light.' },
    });
    expect(posted.status).toBe(201);
    const { slug } = (posted.body as { data: { slug: string } }).data;
    await page.getByRole('link', { name: /^(Content Manager|Pengelola Konten)$/ }).click();
    await page.getByRole('link', { name: 'Article', exact: true }).click();
    await page.getByRole('gridcell', { name: title, exact: true }).click();
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete entry' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('This article moves to the trash for 30 days', { exact: false }).waitFor();
    expect(await dialog.getByText(/irreversible|Are you sure/).count()).toBe(0);
    await screenshot('02b-delete-dialog');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    // The Content Manager's own notice, on its list (no "Not Found" from the edit view it left: the step fails on any 4xx).
    await expectNotice('Deleted document');
    await page.getByRole('gridcell', { name: title, exact: true }).waitFor({ state: 'detached' });
    expect((await call('GET', `/api/artikel/${slug}`)).status).toBe(404);
    await openTrash();
    expect(await trashRow(title).innerText()).toContain(slug);
    await closeNotices();
    // The steps below start from an empty trash, and open the Trash page anew.
    await page.getByRole('link', { name: /^(Content Manager|Pengelola Konten)$/ }).click();
    expect((await call('DELETE', `/artikel/trash/${(posted.body as { data: { id: string } }).data.id}`, { bearer: jwt })).status).toBe(204);
  });

  step('an article an editor deletes forever, after a confirmation, leaves the trash and frees its slug', async () => {
    const title = 'Test shots of the new backdrop';
    const slug = await postAndDelete(title);
    await openTrash();
    await trashRow(title).getByRole('button', { name: 'Delete forever' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByRole('heading', { name: `Delete ‘${title}’ forever?` }).waitFor();
    expect(await dialog.innerText()).toContain(slug);
    await screenshot('03-confirm-delete-forever');
    await dialog.getByRole('button', { name: 'Delete forever' }).click();
    await expectNotice(`‘${title}’ is deleted forever`);
    await page.getByText('The trash is empty').waitFor();
    await closeNotices();

    // Its slug is free: a new article of the same title takes it again.
    const again = await call('POST', '/api/artikel', { bearer: token, body: { title, category: 'Weddings', content: 'A second take.' } });
    expect(again.status).toBe(201);
    expect((again.body as { data: { slug: string } }).data.slug).toBe(slug);
  });

  step('an article purged by someone else while the page lists it cannot be restored, and the admin gives the reason', async () => {
    const title = 'Outtakes from the studio party';
    await postAndDelete(title);
    await page.reload();
    await trashRow(title).waitFor();
    const listed = (await call('GET', '/artikel/trash', { bearer: jwt })).body as { data: Array<{ document_id: string; title: string }> };
    const documentId = listed.data.find((entry) => entry.title === title)?.document_id ?? '';
    expect((await call('DELETE', `/artikel/trash/${documentId}`, { bearer: jwt })).status).toBe(204);

    monitor.expect([
      {
        method: 'POST',
        path: /^\/artikel\/trash\/[^/]+\/restore$/,
        status: 404,
        reason: 'the article was purged after the page was loaded',
      },
    ]);
    await trashRow(title).getByRole('button', { name: 'Restore' }).click();
    const refusal = page.getByRole('region', { name: /^Notifications/ }).getByRole('alert');
    await refusal.filter({ hasText: `‘${title}’ could not be restored: No article with the id "${documentId}" is in the trash` }).waitFor();
    // The list is read again after the refusal: the purged article is gone from it.
    await page.getByText('The trash is empty').waitFor();
    await screenshot('04-restore-refused');
    await closeNotices();
  });

  step('an editor who empties the trash, after a confirmation, deletes every article in it for good', async () => {
    const titles = ['Engagement walk in the vineyard', 'Family portraits at the lake'];
    for (const title of titles) await postAndDelete(title);
    await page.reload();
    for (const title of titles) await trashRow(title).waitFor();
    await page.getByRole('button', { name: 'Empty the trash' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByRole('heading', { name: 'Empty the trash?' }).waitFor();
    expect(await dialog.innerText()).toContain('2 articles are removed for good');
    await screenshot('05-confirm-empty');
    await dialog.getByRole('button', { name: 'Empty the trash' }).click();
    await expectNotice('2 articles deleted forever');
    await page.getByText('The trash is empty').waitFor();
    await screenshot('06-emptied');

    const listed = await call('GET', '/artikel/trash', { bearer: jwt });
    expect(listed).toEqual({ status: 200, body: { data: [] } });
    expect(await page.getByRole('button', { name: 'Empty the trash' }).isDisabled()).toBe(true);
  });

  step("an Author who deletes their own draft in the edit view finds only it in the trash, and emptying it leaves another's", async () => {
    // The Author is invited by the editor and registers, as the invitation's form does.
    const roles = (await call('GET', '/admin/roles', { bearer: jwt })).body as { data: Array<{ id: number; code: string }> };
    const authorRole = roles.data.find((role) => role.code === 'strapi-author')?.id;
    const invited = await call('POST', '/admin/users', {
      bearer: jwt,
      body: { firstname: 'Ari', lastname: 'Author', email: AUTHOR.email, roles: [authorRole] },
    });
    expect(invited.status).toBe(201);
    const registered = await call('POST', '/admin/register', {
      body: {
        registrationToken: (invited.body as { data: { registrationToken: string } }).data.registrationToken,
        userInfo: { firstname: 'Ari', lastname: 'Author', password: AUTHOR.password },
      },
    });
    expect(registered.status).toBe(200);
    const authorJwt = (registered.body as { data: { token: string } }).data.token;
    expect((await call('PUT', '/admin/users/me', { bearer: authorJwt, body: { preferedLanguage: 'en' } })).status).toBe(200);
    // The Author's own draft, deleted in the Content Manager; and an article of the workflow's.
    const own = 'Ari’s notes on the harbour shoot';
    const categories = (await call('GET', '/content-manager/collection-types/api::category.category', { bearer: jwt })).body as {
      results: Array<{ documentId: string }>;
    };
    const category = { connect: [{ documentId: categories.results[0].documentId }], disconnect: [] };
    const created = await call('POST', '/content-manager/collection-types/api::article.article', {
      bearer: authorJwt,
      body: { title: own, content: 'Blue hour, three frames.', category },
    });
    expect(created.status).toBe(201);
    const ownId = (created.body as { data: { documentId: string } }).data.documentId;
    const theirs = 'Booking workflow test post';
    await postAndDelete(theirs);

    const context = await (browser as Browser).newContext({ viewport: { width: 1440, height: 1000 }, locale: 'en-US' });
    const authorPage = await context.newPage();
    // Watched as the editor's page is: no 4xx but the admin's own probes, no page error.
    const authorMonitor = new PageMonitor(baseUrl());
    await authorMonitor.attach(context, authorPage);
    try {
      await authorPage.goto(`${baseUrl()}/admin/auth/login`);
      await authorPage.locator('input[name="email"]').fill(AUTHOR.email);
      await authorPage.locator('input[name="password"]').fill(AUTHOR.password);
      await authorPage.getByRole('button', { name: 'Login' }).click();
      await authorPage.waitForURL(/\/admin\/?$/);
      // The Author deletes their own draft from its edit view: told where it goes, and no error after.
      await authorPage.goto(`${baseUrl()}/admin/content-manager/collection-types/api::article.article/${ownId}`);
      await authorPage.getByRole('heading', { name: own, level: 1 }).waitFor();
      await authorPage.getByRole('button', { name: 'More actions' }).click();
      await authorPage.getByRole('menuitem', { name: 'Delete entry' }).click();
      const deleting = authorPage.getByRole('alertdialog');
      await deleting.getByText('This article moves to the trash for 30 days', { exact: false }).waitFor();
      await deleting.getByRole('button', { name: 'Confirm' }).click();
      await authorPage.getByText('Deleted document', { exact: true }).first().waitFor();
      expect(await authorPage.getByText(/Not Found|went wrong/).count()).toBe(0);
      expect(authorMonitor.takeProblems()).toEqual([]);
      await authorPage.getByRole('link', { name: 'Trash', exact: true }).click();
      await authorPage.getByRole('heading', { name: 'Trash', level: 1 }).waitFor();
      await authorPage.getByRole('row').filter({ hasText: own }).waitFor();
      expect(await authorPage.getByRole('row').filter({ hasText: theirs }).count()).toBe(0);
      await authorPage.screenshot({ path: path.join(ARTIFACTS, 'trash-07-author.png'), fullPage: true, animations: 'disabled' });
      await authorPage.getByRole('button', { name: 'Empty the trash' }).click();
      const dialog = authorPage.getByRole('alertdialog');
      await dialog.getByRole('button', { name: 'Empty the trash' }).click();
      await authorPage.getByText('The trash is empty').waitFor();
    } finally {
      await context.close();
    }
    const left = (await call('GET', '/artikel/trash', { bearer: jwt })).body as { data: Array<{ title: string }> };
    expect(left.data.map((entry) => entry.title)).toEqual([theirs]);
  });

  step('a file with a script under /uploads/ is shown, never run, when an editor opens it', async () => {
    if (!app) throw new Error('no app');
    // As if it had got past the upload check (one stored before the photo-only rule, say).
    const uploads = path.join(app.appDir, 'public', 'uploads');
    fs.writeFileSync(
      path.join(uploads, 'evil.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("/svg-script-ran")</script><rect width="40" height="40"/></svg>',
    );
    fs.writeFileSync(path.join(uploads, 'evil.html'), '<!doctype html><script>fetch("/html-script-ran")</script><p>page</p>');
    const ran: string[] = [];
    page.on('request', (request) => {
      if (/script-ran/.test(request.url())) ran.push(request.url());
    });
    // Chromium says so itself: the policy's sandbox blocks the file's script.
    const blocked: string[] = [];
    const sandboxed = /^Blocked script execution in '.*\/uploads\/evil\.(svg|html)' because the document's frame is sandboxed/;
    page.on('console', (message) => {
      if (sandboxed.test(message.text())) blocked.push(message.text());
    });
    monitor.expectConsole([sandboxed]);
    monitor.expect([{ method: 'GET', path: /^\/uploads\/evil\.(svg|html)$/, status: 200, reason: 'the files are opened on purpose' }]);
    for (const file of ['evil.svg', 'evil.html']) {
      const response = await page.goto(`${baseUrl()}/uploads/${file}`);
      expect(response?.headers()['content-security-policy']).toMatch(/sandbox/);
      await page.waitForTimeout(1000);
    }
    expect(ran).toEqual([]);
    expect(blocked).toHaveLength(2);
    await page.goto(`${baseUrl()}/admin`);
  });
});
