/**
 * The Revisions panel in a real browser, against a production build of the whole service (see
 * support/app.ts): an article written and then changed through the public API by an API token,
 * which an editor inspects and restores in the admin. The steps build on each other and run in order.
 *
 * Run with `npm run test:browser -- tests/browser/revisions.e2e.ts`. Every step keeps a screenshot
 * `revisions-<nn>-….png` in tests/browser/artifacts/ (`.failed.png` when it failed), with
 * revisions-timings.json and the server's and build's logs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createWorkFolder, startProductionApp, stopAllChildren, type ProductionApp } from './support/app';
import { ARTIFACTS, clearArtifacts, expectNotice, openBrowser, stepsWith, type BrowserSession } from './support/session';

const PREFIX = 'revisions';
const SETUP_MS = 20 * 60_000; // copy + `npm run build` (45-80 s measured) + start (3-6 s)

const ADMIN = { firstname: 'Rita', lastname: 'Reviewer', email: 'rita@lichtbild.example', password: 'Lichtbild-2026' };
const TOKEN_NAME = 'n8n';
const FIRST = {
  title: 'Fog over the vineyard',
  category: 'Landscapes',
  content: 'We walked the rows at six. The fog lifted slowly over the **old vines** and the light turned soft.',
};
const CHANGED = {
  title: 'Fog over the vineyard at dawn',
  content: 'We walked the rows at five. The fog lifted quickly over the **young vines** and the light turned gold.',
};

let folder: string | undefined;
let app: ProductionApp | undefined;
let session: BrowserSession | undefined;
const walk = { token: '', slug: '', documentId: '', publishedAt: '' };

const { step, timings } = stepsWith(PREFIX, () => session);

const baseUrl = () => {
  if (!app) throw new Error('the service did not start (see beforeAll)');
  return app.baseUrl;
};

interface Answer {
  status: number;
  body: { data: Record<string, unknown> & { id?: string; slug?: string; title?: string; content?: string } };
}

/** A plain HTTP call from the test process, as a client of the service would make it. */
async function call(pathname: string, init: RequestInit & { json?: object } = {}): Promise<Answer> {
  const { json, ...rest } = init;
  const response = await fetch(`${baseUrl()}${pathname}`, {
    ...rest,
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    headers: { ...(json === undefined ? {} : { 'Content-Type': 'application/json' }), ...(rest.headers as Record<string, string>) },
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text for the failure message
  }
  if (response.status >= 300) throw new Error(`${rest.method ?? 'GET'} ${pathname}: ${response.status} ${text.slice(0, 500)}`);
  return { status: response.status, body: body as Answer['body'] };
}

beforeAll(async () => {
  clearArtifacts(PREFIX);
  folder = createWorkFolder();
  app = await startProductionApp(folder);
  // The administrator and the API token exist before the browser comes: they are the scenario's setting, not its subject.
  const registered = await call('/admin/register-admin', { method: 'POST', json: ADMIN });
  const jwt = (registered.body.data as { token: string }).token;
  // A new administrator's admin speaks Indonesian (ADMIN_DEFAULT_LOCALE); this walk reads English
  // names, so the editor's profile says English, as the profile page would save it.
  const english = await call('/admin/users/me', {
    method: 'PUT',
    headers: { Authorization: `Bearer ${jwt}` },
    json: { preferedLanguage: 'en' },
  });
  expect(english.status).toBe(200);
  const created = await call('/admin/api-tokens', {
    method: 'POST',
    headers: { Authorization: `Bearer ${jwt}` },
    json: { name: TOKEN_NAME, description: 'Automations', type: 'full-access', lifespan: null },
  });
  walk.token = (created.body.data as { accessKey: string }).accessKey;
  session = await openBrowser(app.baseUrl);
}, SETUP_MS);

afterAll(async () => {
  const report = { buildMs: app?.buildMs, startMs: app?.startMs, steps: timings };
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  fs.writeFileSync(path.join(ARTIFACTS, `${PREFIX}-timings.json`), `${JSON.stringify(report, null, 2)}\n`);
  console.log(
    timings.map((entry) => `step ${entry.step} ${entry.passed ? 'passed' : 'FAILED'} in ${entry.ms} ms: ${entry.name}`).join('\n'),
  );
  await session?.close();
  await app?.stop().catch(() => undefined);
  await stopAllChildren();
  if (folder) {
    for (const log of ['server.log', 'build.log']) {
      if (fs.existsSync(path.join(folder, log))) fs.copyFileSync(path.join(folder, log), path.join(ARTIFACTS, `${PREFIX}-${log}`));
    }
    fs.rmSync(folder, { recursive: true, force: true });
  }
}, 60_000);

const bearer = () => ({ Authorization: `Bearer ${walk.token}` });
const revisionsPanel = (page: BrowserSession['page']) =>
  page.getByRole('complementary').filter({ has: page.getByRole('heading', { name: 'Revisions' }) });
const revision = (page: BrowserSession['page'], number: number) => revisionsPanel(page).locator(`li[data-revision="${number}"]`);

describe('the Revisions panel of a production build', () => {
  step('an article published and then changed through the API by a token is read back changed', 60_000, async () => {
    const created = await call('/api/artikel', { method: 'POST', headers: bearer(), json: FIRST });
    expect(created.status).toBe(201);
    walk.slug = String(created.body.data.slug);
    walk.documentId = String(created.body.data.id);
    await call(`/api/artikel/${walk.slug}`, { method: 'PATCH', headers: bearer(), json: CHANGED });

    const live = await call(`/api/artikel/${walk.slug}`);
    expect(live.body.data).toMatchObject({ title: CHANGED.title, content: CHANGED.content, status: 'published' });
    walk.publishedAt = String(live.body.data.published_at);
  });

  step("the editor signs in and sees, in the article's Revisions panel, the token's change and the token's name", 90_000, async (page) => {
    await page.goto(`${baseUrl()}/admin/auth/login`);
    await page.locator('input[name="email"]').fill(ADMIN.email);
    await page.locator('input[name="password"]').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('heading', { name: `Hello ${ADMIN.firstname}`, level: 1 }).waitFor();

    await page.goto(`${baseUrl()}/admin/content-manager/collection-types/api::article.article/${walk.documentId}`);
    await page.getByRole('heading', { name: CHANGED.title, level: 1 }).waitFor();
    const newest = revision(page, 2);
    await newest.waitFor();
    await newest.getByText('#2 Changed', { exact: true }).waitFor();
    await newest.getByText(`API token ‘${TOKEN_NAME}’`, { exact: true }).waitFor();
    // The fields by the labels the edit view shows them with.
    await newest.getByText(/^Changed: .*Title.*Content/).waitFor();
    await revision(page, 1).getByText('#1 Created', { exact: true }).waitFor();
    await revisionsPanel(page).scrollIntoViewIfNeeded();
  });

  step("opening the change shows its word diff: the token's words struck through and the new ones added", 60_000, async (page) => {
    await revision(page, 2).getByRole('button', { name: 'Show changes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Version 2: Changed' });
    await dialog.waitFor();
    await dialog.locator('del', { hasText: 'six' }).first().waitFor();
    const removed = await dialog.locator('del').allInnerTexts();
    const added = await dialog.locator('ins').allInnerTexts();
    expect(removed.join(' ')).toMatch(/six/);
    expect(removed.join(' ')).toMatch(/old/);
    expect(added.join(' ')).toMatch(/five/);
    expect(added.join(' ')).toMatch(/young/);
    expect(added.join(' ')).toMatch(/at dawn/);
    // A word replaced by another reads as two words, not one ("sixfive").
    expect(await dialog.innerText()).toMatch(/six five/);
    // The newest version is the article as it stands: nothing to restore.
    await dialog.getByText('This is the current version', { exact: true }).waitFor();
  });

  step('restoring the previous version asks for confirmation first', 60_000, async (page) => {
    await page.getByRole('dialog', { name: 'Version 2: Changed' }).getByRole('button', { name: 'Close' }).first().click();
    await revision(page, 1).getByRole('button', { name: 'Show changes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Version 1: Created' });
    await dialog.getByRole('button', { name: 'Restore this version' }).click();
    await page.getByRole('alertdialog').getByText('Restore version 1?', { exact: true }).waitFor();
  });

  step(
    'once confirmed, the edit view shows the restored text, a new revision by the editor, and the public article is still published',
    120_000,
    async (page) => {
      await page.getByRole('alertdialog').getByRole('button', { name: 'Restore', exact: true }).click();
      await expectNotice(page, 'Version 1 restored as a new version');
      await page.getByRole('heading', { name: FIRST.title, level: 1 }).waitFor();
      expect(await page.getByRole('textbox', { name: 'Title', exact: true }).inputValue()).toBe(FIRST.title);
      const restored = revision(page, 3);
      await restored.getByText('#3 Restored version 1', { exact: true }).waitFor();
      await restored.getByText(`${ADMIN.firstname} ${ADMIN.lastname}`, { exact: true }).waitFor();

      const live = await call(`/api/artikel/${walk.slug}`);
      expect(live.body.data).toMatchObject({
        title: FIRST.title,
        content: FIRST.content,
        status: 'published',
        published_at: walk.publishedAt,
      });
      await revisionsPanel(page).scrollIntoViewIfNeeded();
    },
  );

  step(
    'any two versions compare: the restore against the version it gave back shows no difference, against the one before it the undone words',
    60_000,
    async (page) => {
      await revision(page, 3).getByRole('button', { name: 'Show changes' }).click();
      const dialog = page.getByRole('dialog', { name: 'Version 3: Restored version 1' });
      await dialog.locator('ins', { hasText: 'six' }).first().waitFor();
      await dialog.getByRole('combobox', { name: 'Compare with' }).click();
      await page.getByRole('option', { name: 'Version 1: Created' }).click();
      await dialog.getByText('The title, summary and content are the same in both versions', { exact: true }).waitFor();
      expect(await dialog.locator('ins, del').count()).toBe(0);
    },
  );
});
