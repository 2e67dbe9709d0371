/**
 * An editor's day in a real browser, against a production build of the whole service
 * (`npm run build`, `npm start`'s scripts/start.js with NODE_ENV=production, a temporary SQLite file).
 * One user, one browser session: the steps build on each other and run in order, in this file only.
 *
 * Run with `npm run test:browser`. Every step keeps a screenshot in tests/browser/artifacts/
 * (`.failed.png` when it failed), with timings.json and the server's and build's logs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { createWorkFolder, startProductionApp, stopAllChildren, STUDIO_NAME, type ProductionApp } from './support/app';
import { englishOn } from './support/english-strings';
import { expectNotice as expectNoticeOn } from './support/session';
import { PageMonitor } from './support/monitor';
import { gradientPng } from './support/png';
import { eventually } from '../helpers/eventually';

const ARTIFACTS = path.join(__dirname, 'artifacts');
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

/**
 * Step budgets (the second argument of each step) are 10x or more what the steps take on a busy
 * 2-core machine (2-6 s; 9-12 s for the steps that publish after uploads), and each step that saves
 * or publishes also fits NOTICE_MS (support/session.ts), so a server error arrives as the admin's message, not a timeout.
 */
const SETUP_MS = 20 * 60_000; // copy + `npm run build` (45-80 s measured) + start (3-6 s)

const ADMIN = { firstname: 'Erika', lastname: 'Editor', email: 'erika@lichtbild.example', password: 'Lichtbild-2026' };
const CATEGORY = 'Weddings';
const ARTICLE = {
  title: 'Golden hour on the lake',
  content:
    'We met the couple at the pier an hour before sunset. **Backlight** and a reflector did the rest.\n\nThe boat ride was their idea.',
  tags: 'Wedding, Lake, golden hour',
};
const EDITED = {
  title: 'Golden hour on the lake, revisited',
  content: 'Second look at the pier: the **blue hour** after sunset was even better.',
};
const MOVED_SLUG = 'golden-hour-revisited';
const SCHEDULED = {
  title: 'Autumn mini sessions in the park',
  slug: 'autumn-mini-sessions-in-the-park',
  content: 'Twenty minutes under the maples, **prints included**.',
};
const IMAGES = [
  {
    file: 'pier-at-sunset.png',
    width: 320,
    height: 200,
    rgb: [200, 120, 40] as [number, number, number],
    alt: 'Couple on a wooden pier at sunset',
    caption: 'The pier at golden hour',
  },
  {
    file: 'boat-on-the-lake.png',
    width: 240,
    height: 160,
    rgb: [30, 90, 200] as [number, number, number],
    alt: 'Rowing boat on a calm blue lake',
    caption: 'Boat ride after the ceremony',
  },
];

let folder: string | undefined;
let app: ProductionApp | undefined;
let browser: Browser | undefined;
let context: BrowserContext;
let page: Page;
let monitor: PageMonitor;
const timings: { step: number; name: string; ms: number; passed: boolean }[] = [];

/** What the walk has learned so far. */
const walk = { editUrl: '', slug: '', views: 0, reads: 0 };

const baseUrl = () => {
  if (!app) throw new Error('the service did not start (see beforeAll)');
  return app.baseUrl;
};

interface GalleryItem {
  url: string;
  alt: string;
  caption: string;
  width: number;
  height: number;
}

/** The parts of the contract's answers the walk reads; everything else is compared whole. */
interface ContractBody {
  data: {
    views: number;
    content: string;
    content_html: string;
    cover_image_url: string | null;
    gallery: GalleryItem[];
    [field: string]: unknown;
  };
  error?: Record<string, unknown>;
}

interface ApiAnswer {
  status: number;
  body: ContractBody;
  headers: Headers;
}

/** A plain HTTP call from the test process, as a client of the public API would make it. */
async function api(pathname: string, init?: RequestInit): Promise<ApiAnswer> {
  const response = await fetch(`${baseUrl()}${pathname}`, { ...init, signal: AbortSignal.timeout(30_000) });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text for the failure message
  }
  // Read as the contract describes it; the assertions on it say what the answer must be.
  return { status: response.status, body: body as ContractBody, headers: response.headers };
}

async function readArticle(slug: string): Promise<ApiAnswer> {
  if (!slug) throw new Error('no slug to read: the step that publishes the article failed');
  const answer = await api(`/api/artikel/${encodeURIComponent(slug)}`);
  if (answer.status === 200) walk.reads += 1;
  return answer;
}

/** The admin's notice after an action on the day's page (see support/session.ts). */
const expectNotice = (text: string): Promise<void> => expectNoticeOn(page, text);

/** The value of a form field once it is not empty (the form refreshes after the server answers). */
async function filledValue(field: Locator, timeout = 10_000): Promise<string> {
  return eventually(
    () => field.inputValue(),
    (value) => value !== '',
    { withinMs: timeout, everyMs: 200 },
  );
}

const field = (name: string) => page.getByRole('textbox', { name, exact: true });
/** CodeMirror, the admin's Markdown editor, has no accessible name; it is the only one on the page. */
const contentEditor = () => page.locator('.CodeMirror');
const viewsPanel = (title = 'Views') => page.getByRole('complementary').filter({ has: page.getByRole('heading', { name: title }) });

/**
 * The editor's interface language, chosen on their profile page as an editor does, from whichever
 * language it shows now. The admin takes it once the saved profile is read back; `lang` of the page
 * is what it then shows.
 */
async function chooseInterfaceLanguage(language: 'English' | 'Indonesian', code: 'en' | 'id'): Promise<void> {
  await page.goto(`${baseUrl()}/admin/me`);
  await page.getByRole('combobox', { name: /^(Interface language|Bahasa antarmuka)$/ }).click();
  await page.getByRole('option', { name: language, exact: true }).click();
  await page.getByRole('button', { name: /^(Save|Simpan)$/ }).click();
  // A locator, not waitForFunction: the admin's Content Security Policy refuses evaluated strings.
  await page.locator(`html[lang="${code}"]`).waitFor({ state: 'attached' });
}

/** The article's edit view, for a step that did not arrive there by the previous one. */
async function onEditView(title: string): Promise<void> {
  if (!walk.editUrl) throw new Error('no article to edit: the step that creates it failed');
  if (page.url() !== walk.editUrl) await page.goto(walk.editUrl);
  await page.getByRole('heading', { name: title, level: 1 }).waitFor();
}

async function openArticleFromList(title: string): Promise<void> {
  await page.getByRole('link', { name: /^(Content Manager|Pengelola Konten)$/ }).click();
  await page.getByRole('link', { name: 'Article', exact: true }).click();
  await page.getByRole('gridcell', { name: title, exact: true }).click();
  await page.getByRole('heading', { name: title, level: 1 }).waitFor();
}

async function replaceContent(text: string): Promise<void> {
  await contentEditor().click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
}

let stepCount = 0;

/**
 * One step of the day: a test named by the behaviour it shows. It fails on its own assertions and
 * on anything unexpected in the browser meanwhile (a 5xx, a 4xx not allowed, a page error, a
 * console error), and always leaves a screenshot. The step stops itself before Jest's timeout so
 * the failure screenshot is taken.
 */
function step(name: string, budgetMs: number, body: () => Promise<void>): void {
  stepCount += 1;
  const number = stepCount;
  const file = `${String(number).padStart(2, '0')}-${name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60)}`;
  it(
    name,
    async () => {
      if (!browser || !app) throw new Error('the service or the browser did not start (see beforeAll)');
      const started = Date.now();
      let failure: unknown;
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          body(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`step took longer than its budget of ${budgetMs} ms`)), budgetMs);
          }),
        ]);
        await page.waitForTimeout(500); // let the last requests of the step answer before judging them
      } catch (error) {
        failure = error;
      } finally {
        clearTimeout(timer);
      }
      const ms = Date.now() - started;
      const problems = monitor.takeProblems();
      const passed = failure === undefined && problems.length === 0;
      timings.push({ step: number, name, ms, passed });
      await page.screenshot({ path: path.join(ARTIFACTS, `${file}${passed ? '' : '.failed'}.png`), fullPage: true }).catch(() => undefined);
      const counts = new Map<string, number>();
      for (const problem of problems)
        counts.set(`${problem.kind}: ${problem.text}`, (counts.get(`${problem.kind}: ${problem.text}`) ?? 0) + 1);
      const unexpected = [...counts].map(([text, count]) => `- ${text}${count > 1 ? ` (${count} times)` : ''}`).join('\n');
      if (failure !== undefined) {
        if (unexpected && failure instanceof Error)
          failure.message += `\n\nAlso unexpected in the browser during this step:\n${unexpected}`;
        throw failure;
      }
      if (unexpected) throw new Error(`Unexpected in the browser during this step:\n${unexpected}`);
    },
    budgetMs + 30_000,
  );
}

beforeAll(async () => {
  // Only this file's artifacts of an earlier run: the other browser files keep theirs (revisions-…, trash-…) in the same folder.
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  for (const name of fs.readdirSync(ARTIFACTS))
    if (/^\d\d-/.test(name) || ['timings.json', 'server.log', 'build.log'].includes(name))
      fs.rmSync(path.join(ARTIFACTS, name), { force: true });
  folder = createWorkFolder();
  for (const image of IMAGES) fs.writeFileSync(path.join(folder, image.file), gradientPng(image.width, image.height, image.rgb));
  app = await startProductionApp(folder);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, locale: 'en-US' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseUrl });
  context.setDefaultTimeout(30_000);
  context.setDefaultNavigationTimeout(60_000);
  page = await context.newPage();
  monitor = new PageMonitor(app.baseUrl);
  await monitor.attach(context, page);
}, SETUP_MS);

afterAll(async () => {
  const total = timings.reduce((sum, entry) => sum + entry.ms, 0);
  const report = {
    buildMs: app?.buildMs,
    startMs: app?.startMs,
    steps: timings,
    stepsTotalMs: total,
    allowedResponsesSeen: Object.fromEntries(monitor?.allowedSeen ?? []),
    blockedExternalRequests: [...(monitor?.blockedExternal ?? [])],
  };
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  fs.writeFileSync(path.join(ARTIFACTS, 'timings.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(
    [
      `build ${app?.buildMs ?? '-'} ms, start ${app?.startMs ?? '-'} ms`,
      ...timings.map((entry) => `step ${entry.step} ${entry.passed ? 'passed' : 'FAILED'} in ${entry.ms} ms: ${entry.name}`),
      `steps together ${total} ms`,
    ].join('\n'),
  );
  await browser?.close().catch(() => undefined);
  await app?.stop().catch(() => undefined);
  await stopAllChildren();
  if (folder) {
    for (const log of ['server.log', 'build.log']) {
      if (fs.existsSync(path.join(folder, log))) fs.copyFileSync(path.join(folder, log), path.join(ARTIFACTS, log));
    }
    fs.rmSync(folder, { recursive: true, force: true });
  }
}, 60_000);

describe("an editor's day in the admin of a production build", () => {
  step('a first visit to /admin registers the first administrator and lands on the dashboard, in Indonesian', 60_000, async () => {
    await page.goto(`${baseUrl()}/admin`);
    await page.waitForURL(/\/admin\/auth\/register-admin$/);
    await page.getByRole('heading', { name: 'Welcome to Strapi!' }).waitFor();
    await page.getByLabel('First name*', { exact: true }).fill(ADMIN.firstname);
    await page.getByLabel('Last name', { exact: true }).fill(ADMIN.lastname);
    await page.getByLabel('Email*', { exact: true }).fill(ADMIN.email);
    await page.getByLabel('Password*', { exact: true }).fill(ADMIN.password);
    await page.getByLabel('Confirm Password*', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: "Let's start" }).click();

    // A new editor's admin speaks Indonesian (ADMIN_DEFAULT_LOCALE's default).
    await page.getByRole('heading', { name: `Halo ${ADMIN.firstname}`, level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin');
    expect(await page.evaluate('document.documentElement.lang')).toBe('id');
    // Strapi's Media Library banner, in the admin's Indonesian as everything else.
    await page.getByRole('button', { name: 'Tutup banner.' }).click();
  });

  step('an editor who chooses English on their profile page is greeted in English', 60_000, async () => {
    // The steps below find the admin's buttons and fields by their English names.
    await chooseInterfaceLanguage('English', 'en');
    await page.goto(`${baseUrl()}/admin`);
    await page.getByRole('heading', { name: `Hello ${ADMIN.firstname}`, level: 1 }).waitFor();
  });

  step('a category created in the Content Manager with only a name is listed by the API with a generated slug', 60_000, async () => {
    await page.getByRole('link', { name: /^(Content Manager|Pengelola Konten)$/ }).click();
    await page.getByRole('link', { name: 'Category', exact: true }).click();
    await page.getByRole('heading', { name: 'Category', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Create new entry' }).first().click();
    await page.getByRole('heading', { name: 'Create an entry', level: 1 }).waitFor();
    await field('Name').fill(CATEGORY);
    await page.getByRole('button', { name: 'Save' }).click();
    await expectNotice('Saved document');
    await page.waitForURL((url) => !url.pathname.endsWith('/create'));
    expect(await filledValue(field('URL slug'))).toBe('weddings');

    const categories = await api('/api/artikel/categories');
    expect(categories.status).toBe(200);
    expect(categories.body.data).toEqual([{ name: CATEGORY, slug: 'weddings', article_count: 0 }]);
  });

  step(
    "an article saved and published with only title, content, category and tags shows the server's defaults in the form and the API",
    150_000,
    async () => {
      await page.getByRole('link', { name: 'Article', exact: true }).click();
      await page.getByRole('heading', { name: 'Article', level: 1 }).waitFor();
      await page.getByRole('link', { name: 'Create new entry' }).first().click();
      await page.getByRole('heading', { name: 'Create an entry', level: 1 }).waitFor();

      await field('Title').fill(ARTICLE.title);
      await contentEditor().click();
      await page.keyboard.type(ARTICLE.content);
      await page.getByRole('combobox', { name: 'Category', exact: true }).click();
      await page.getByRole('option', { name: CATEGORY }).click();
      await page.getByRole('listitem').getByRole('button', { name: CATEGORY }).waitFor();
      await field('Tags').fill(ARTICLE.tags);

      await page.getByRole('button', { name: 'Save' }).click();
      await expectNotice('Saved document');
      await page.waitForURL((url) => !url.pathname.endsWith('/create'));
      walk.editUrl = page.url();
      await page.getByRole('button', { name: 'Publish' }).click();
      await expectNotice('Published document');
      await page.getByRole('status', { name: 'published', exact: true }).waitFor();

      const form = {
        slug: await filledValue(field('URL slug')),
        summary: await filledValue(field('Summary')),
        meta_title: await filledValue(field('SEO title')),
        meta_description: await filledValue(field('SEO description')),
        author: await filledValue(field('Author')),
      };
      expect(form.slug).toBe('golden-hour-on-the-lake');
      expect(form.summary).toMatch(/^We met the couple at the pier an hour before sunset\. Backlight and a reflector did the rest\./);
      expect(form.meta_title).toBe(ARTICLE.title);
      expect(form.meta_description).toBe(form.summary);
      expect(form.author).toBe(STUDIO_NAME);
      walk.slug = form.slug;

      const read = await readArticle(walk.slug);
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({
        title: ARTICLE.title,
        slug: form.slug,
        summary: form.summary,
        meta_title: form.meta_title,
        meta_description: form.meta_description,
        author: STUDIO_NAME,
        content: ARTICLE.content,
        category: { name: CATEGORY, slug: 'weddings' },
        tags: ['Wedding', 'Lake', 'golden hour'],
        status: 'published',
        views: 1,
      });
      walk.views = read.body.data.views;
    },
  );

  step("public reads of the article are counted in the edit view's Views panel", 60_000, async () => {
    for (let i = 0; i < 3; i += 1) {
      const read = await readArticle(walk.slug);
      expect(read.status).toBe(200);
      expect(read.body.data.views).toBe(walk.views + 1);
      walk.views = read.body.data.views;
    }
    expect(walk.views).toBe(walk.reads);

    if (!walk.editUrl) throw new Error('no article to look at: the step that creates it failed');
    await page.goto(walk.editUrl); // the panel counts when the edit view opens
    await page.getByRole('heading', { name: ARTICLE.title, level: 1 }).waitFor();
    await viewsPanel().getByText(`${walk.views} reads on the public site`, { exact: true }).waitFor();
  });

  step("without a site of the studio's own, the edit view's Preview shows the article on the service's own page", 60_000, async () => {
    if (!walk.editUrl) throw new Error('no article to look at: the step that creates it failed');
    await page.goto(walk.editUrl);
    await page.getByRole('heading', { name: ARTICLE.title, level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Open preview' }).click();
    const frame = page.frameLocator('iframe').first();
    await frame.getByRole('heading', { name: ARTICLE.title, level: 1 }).waitFor();
    await frame.getByText(/^Pratinjau · /).waitFor();
    await page.goto(walk.editUrl);
    await page.getByRole('heading', { name: ARTICLE.title, level: 1 }).waitFor();
  });

  step(
    'an editor who switches the admin to Indonesian sees the article list, the Views panel and the field labels and help texts in Indonesian',
    90_000,
    async () => {
      await chooseInterfaceLanguage('Indonesian', 'id');
      await page.goto(`${baseUrl()}/admin`);
      await page.getByRole('link', { name: /^(Content Manager|Pengelola Konten)$/ }).click();
      await page.getByRole('link', { name: 'Artikel', exact: true }).click();
      await page.getByRole('heading', { name: 'Artikel', level: 1 }).waitFor();
      await page.getByRole('grid').getByText('Terbitkan pada', { exact: true }).waitFor();
      await page.getByRole('gridcell', { name: ARTICLE.title, exact: true }).click();
      await page.getByRole('heading', { name: ARTICLE.title, level: 1 }).waitFor();

      await viewsPanel('Dibaca').getByText(`Dibaca ${walk.views} kali di situs publik`, { exact: true }).waitFor();
      expect(await field('Judul').inputValue()).toBe(ARTICLE.title);
      expect(await field('Slug URL').inputValue()).toBe(walk.slug);
      await page.getByText('Jika dikosongkan, dibuat dari judul.', { exact: false }).first().waitFor();
      for (const label of ['Ringkasan', 'Penulis', 'Judul SEO', 'Deskripsi SEO']) await field(label).waitFor();
      await page.getByRole('region', { name: 'Foto sampul', exact: true }).waitFor();
      await page.getByText('Pisahkan dengan koma. Paling banyak 20 tag', { exact: false }).waitFor();
      // Strapi's own parts too: the edit view's actions, and the Media Library (issue "Editors").
      await page.getByRole('button', { name: 'Simpan', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Terbit', exact: true }).waitFor();
      for (const english of ['Save', 'Publish', 'Create an entry', 'Unpublish'])
        expect(await page.getByText(english, { exact: true }).count()).toBe(0);
      await page.getByRole('link', { name: 'Pustaka Media' }).click();
      await page.getByRole('heading', { name: /^Beranda \(\d+ item\)$/, level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Tambah aset', exact: true }).waitFor();
      for (const english of ['Media Library', 'No assets yet', 'Add assets', 'Add new assets', 'Filters', 'Search'])
        expect(await page.getByText(english, { exact: true }).count()).toBe(0);
    },
  );

  step('no screen the Indonesian editor opens shows a string of the English admin', 120_000, async () => {
    if (!walk.editUrl) throw new Error('no article to look at: the step that creates it failed');
    const screens: Array<[string, string]> = [
      ['home', `${baseUrl()}/admin`],
      ['article list', `${baseUrl()}/admin/content-manager/collection-types/api::article.article`],
      ['edit view', walk.editUrl],
      ['Media Library', `${baseUrl()}/admin/plugins/upload`],
      ['trash', `${baseUrl()}/admin/plugins/artikel/trash`],
      ['profile', `${baseUrl()}/admin/me`],
    ];
    const found: string[] = [];
    for (const [name, url] of screens) {
      await page.goto(url);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      // Lazy parts (widgets, panels) have their moment to render.
      await page.waitForLoadState('networkidle');
      for (const english of await englishOn(page, [ADMIN.firstname, ARTICLE.title, STUDIO_NAME, 'ID'])) found.push(`${name}: ${english}`);
    }
    expect(found).toEqual([]);
  });

  step('an Indonesian editor types a publish time with a colon or with a dot, and the time field takes both', 60_000, async () => {
    await page.goto(`${baseUrl()}/admin/content-manager/collection-types/api::article.article/create`);
    // The design system's time input (the date input's pattern ends in a year): its pattern carries
    // the language's separator, a dot in Indonesian.
    const time = page.locator('input[inputmode="numeric"][pattern*="d{2}"]:not([pattern*="d{4}"])').first();
    await time.waitFor();
    expect(await time.getAttribute('pattern')).toBe('\\d{2}\\.\\d{2}');
    await time.click();
    await page.keyboard.type('13:50');
    expect(await time.inputValue()).toBe('13.50');
    await page.keyboard.press('Tab');
    expect(await time.inputValue()).toBe('13.50');
    await time.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('09.05');
    await page.keyboard.press('Tab');
    expect(await time.inputValue()).toBe('09.05');
  });

  step('an editor who switches back to English sees the field labels in English again', 60_000, async () => {
    await chooseInterfaceLanguage('English', 'en');
    await onEditView(ARTICLE.title);
    await viewsPanel().getByText(`${walk.views} reads on the public site`, { exact: true }).waitFor();
    expect(await field('Title').inputValue()).toBe(ARTICLE.title);
    await field('URL slug').waitFor();
  });

  step('an edited and re-published article shows the edit in the API and keeps its views', 150_000, async () => {
    await onEditView(ARTICLE.title);
    const revisions = page.getByRole('complementary').filter({ has: page.getByRole('heading', { name: 'Revisions' }) });
    const newestBefore = Number(await revisions.locator('li[data-revision]').first().getAttribute('data-revision'));
    await field('Title').fill(EDITED.title);
    await replaceContent(EDITED.content);
    await page.getByRole('button', { name: 'Save' }).click();
    await expectNotice('Saved document');
    // The Revisions panel follows each write of the open article, without a reload.
    await revisions
      .locator(`li[data-revision="${newestBefore + 1}"]`)
      .getByText(`#${newestBefore + 1} Changed`, { exact: true })
      .waitFor();
    await page.getByRole('button', { name: 'Publish' }).click();
    await expectNotice('Published document');
    await page.getByRole('heading', { name: EDITED.title, level: 1 }).waitFor();
    walk.slug = await filledValue(field('URL slug'));

    const read = await readArticle(walk.slug);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ title: EDITED.title, content: EDITED.content, status: 'published' });
    expect(read.body.data.content_html).toContain('<strong>blue hour</strong>');
    expect(read.body.data.views).toBe(walk.views + 1); // the views before the edit, plus this read
    walk.views = read.body.data.views;
  });

  step('an unpublished article is no longer served by the API', 120_000, async () => {
    await onEditView(EDITED.title);
    const revisions = page.getByRole('complementary').filter({ has: page.getByRole('heading', { name: 'Revisions' }) });
    const newestBefore = Number(await revisions.locator('li[data-revision]').first().getAttribute('data-revision'));
    await page.getByRole('button', { name: 'More document actions' }).click();
    await page.getByRole('menuitem', { name: 'Unpublish' }).click();
    await expectNotice('Unpublished document');
    await page.getByRole('status', { name: 'draft', exact: true }).waitFor();
    // The Revisions panel follows the unpublish at once, named for it.
    await revisions
      .locator(`li[data-revision="${newestBefore + 1}"]`)
      .getByText(`#${newestBefore + 1} Unpublished`, { exact: true })
      .waitFor();

    if (!walk.slug) throw new Error('no slug to read: the step that publishes the article failed');
    const read = await api(`/api/artikel/${encodeURIComponent(walk.slug)}`); // a 404 counts no read
    expect(read.status).toBe(404);
    expect(read.body.error).toMatchObject({ status: 404, name: 'NotFoundError' });
  });

  step('two uploaded images with alt text and captions become the cover and gallery of the re-published article', 240_000, async () => {
    await page.getByRole('link', { name: 'Media Library' }).click();
    await page.getByRole('heading', { name: /^Home \(\d+ items?\)$/, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New' }).click();
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('menuitem', { name: 'File upload', exact: true }).click(),
    ]);
    await chooser.setFiles(IMAGES.map((image) => path.join(folder ?? '', image.file)));
    const uploaded = page.getByRole('dialog', { name: 'Upload successful!' });
    await uploaded.getByText(`${IMAGES.length} files uploaded successfully`).waitFor({ timeout: 60_000 });
    await uploaded.getByRole('button', { name: 'Close' }).click();

    for (const image of IMAGES) {
      await page.getByRole('button', { name: image.file, exact: true }).click();
      const details = page.getByRole('dialog').filter({ has: page.getByRole('heading', { name: image.file, level: 2 }) });
      await details.getByRole('textbox', { name: 'Caption' }).fill(image.caption);
      await details.getByRole('textbox', { name: 'Alternative text' }).fill(image.alt);
      await details.getByRole('button', { name: 'Save changes' }).click();
      await details.getByRole('status').filter({ hasText: 'File updated' }).waitFor();
      // Closing before the form has taken the saved values asks whether to drop "modifications".
      await details.getByRole('button', { name: 'Save changes' }).and(page.locator(':disabled')).waitFor();
      await details.getByRole('button', { name: 'Close' }).first().click();
      await details.waitFor({ state: 'detached' });
    }

    await openArticleFromList(EDITED.title);
    const [cover, second] = IMAGES;
    await page
      .getByRole('region', { name: 'Cover photo', exact: true })
      .getByRole('button', { name: /^Click to add an asset/ })
      .click();
    let picker = page.getByRole('dialog', { name: 'Add new assets' });
    await picker.getByRole('checkbox', { name: cover.file, exact: true }).check();
    await picker.getByRole('button', { name: 'Finish' }).click();
    await picker.waitFor({ state: 'detached' });
    await page.getByRole('region', { name: 'Cover photo', exact: true }).getByRole('img', { name: cover.alt }).waitFor();

    await page
      .getByRole('region', { name: 'Gallery', exact: true })
      .getByRole('button', { name: /^Click to add an asset/ })
      .click();
    picker = page.getByRole('dialog', { name: 'Add new assets' });
    for (const image of IMAGES) await picker.getByRole('checkbox', { name: image.file, exact: true }).check();
    await picker.getByRole('button', { name: 'Finish' }).click();
    await picker.waitFor({ state: 'detached' });
    await page.getByRole('region', { name: `Gallery (1 / ${IMAGES.length})`, exact: true }).waitFor();

    await page.getByRole('button', { name: 'Save' }).click();
    await expectNotice('Saved document');
    await page.getByRole('button', { name: 'Publish' }).click();
    await expectNotice('Published document');

    const read = await readArticle(walk.slug);
    expect(read.status).toBe(200);
    const gallery: GalleryItem[] = read.body.data.gallery;
    const UPLOADED_PNG = new RegExp(`^${baseUrl().replace(/[.]/g, '\\.')}/uploads/.+\\.png$`);
    expect(gallery).toEqual([
      // Each with the smaller copies the Media Library made of it (a thumbnail at these sizes) and a
      // srcset of them, on the service's public address (PUBLIC_URL, which production requires).
      expect.objectContaining({
        url: expect.stringMatching(UPLOADED_PNG),
        alt: cover.alt,
        caption: cover.caption,
        width: cover.width,
        height: cover.height,
        mime: 'image/png',
        srcset: expect.stringMatching(/ 245w, .+ 320w$/),
      }),
      expect.objectContaining({
        url: expect.stringMatching(UPLOADED_PNG),
        alt: second.alt,
        caption: second.caption,
        width: second.width,
        height: second.height,
        mime: 'image/png',
        srcset: expect.stringMatching(/ 240w$/),
      }),
    ]);
    expect(read.body.data.cover_image_url).toBe(gallery[0].url);
    for (const url of [read.body.data.cover_image_url, gallery[1].url]) {
      const image = await fetch(`${url}`);
      expect([url, image.status, image.headers.get('content-type')]).toEqual([url, 200, 'image/png']);
    }
    await page.getByRole('region', { name: /^Gallery/ }).scrollIntoViewIfNeeded(); // for the screenshot
  });

  step('an API token created in Settings with only the Artikel create permission publishes through POST /api/artikel', 90_000, async () => {
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('link', { name: 'API Tokens' }).click();
    await page.getByRole('link', { name: 'Create new API Token' }).first().click();
    await page.getByRole('heading', { name: 'Create API Token', level: 1 }).waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('n8n automation');
    await page.getByRole('combobox', { name: 'Token duration' }).click();
    await page.getByRole('option', { name: 'Unlimited' }).click();
    await page.getByRole('combobox', { name: 'Token type' }).click();
    await page.getByRole('option', { name: 'Custom' }).click();
    await page.getByRole('button', { name: 'Artikel' }).click();
    await page.getByRole('region', { name: 'Artikel' }).getByRole('checkbox', { name: 'create', exact: true }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expectNotice('API Token successfully created');

    const shown = await page.getByText(/^[0-9a-f]{64,}$/).innerText();
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await expectNotice('Token copied to clipboard.');
    const copied = String(await page.evaluate('navigator.clipboard.readText()'));
    expect(copied).toBe(shown);

    const posted = await api('/api/artikel', {
      method: 'POST',
      headers: { Authorization: `Bearer ${copied}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        title: 'Spring mini sessions are open',
        category: 'weddings',
        content: 'Book a **20-minute** session in the garden.',
        tags: 'Portrait, Spring',
      }),
    });
    expect(posted.status).toBe(201);
    expect(posted.headers.get('location')).toBe('/api/artikel/spring-mini-sessions-are-open');
    expect(posted.body.data).toMatchObject({
      slug: 'spring-mini-sessions-are-open',
      author: STUDIO_NAME,
      category: { name: CATEGORY, slug: 'weddings' },
      status: 'published',
    });
    const read = await api('/api/artikel/spring-mini-sessions-are-open');
    expect(read.status).toBe(200);
  });

  step(
    'a published article whose slug an editor changes is served at the new address, and the old one redirects there',
    120_000,
    async () => {
      await openArticleFromList(EDITED.title);
      const oldSlug = walk.slug;
      await field('URL slug').fill(MOVED_SLUG);
      await page.getByRole('button', { name: 'Save' }).click();
      await expectNotice('Saved document');
      await page.getByRole('button', { name: 'Publish' }).click();
      await expectNotice('Published document');

      const moved = await fetch(`${baseUrl()}/api/artikel/${encodeURIComponent(oldSlug)}`, { redirect: 'manual' });
      expect(moved.status).toBe(301);
      expect(moved.headers.get('location')).toBe(`/api/artikel/${MOVED_SLUG}`);
      const read = await readArticle(MOVED_SLUG);
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({ slug: MOVED_SLUG, title: EDITED.title, status: 'published' });
      walk.slug = MOVED_SLUG;
    },
  );

  step('a draft an editor gives a "Publish at" time is listed as scheduled and goes live by itself at that time', 240_000, async () => {
    await page.getByRole('link', { name: /^(Content Manager|Pengelola Konten)$/ }).click();
    await page.getByRole('link', { name: 'Article', exact: true }).click();
    await page.getByRole('link', { name: 'Create new entry' }).first().click();
    await page.getByRole('heading', { name: 'Create an entry', level: 1 }).waitFor();
    await field('Title').fill(SCHEDULED.title);
    await contentEditor().click();
    await page.keyboard.type(SCHEDULED.content);
    await page.getByRole('combobox', { name: 'Category', exact: true }).click();
    await page.getByRole('option', { name: CATEGORY }).click();
    const time = page.getByRole('combobox', { name: 'Choose time' });
    // The time list offers every minute, not only the quarter hours.
    await time.click();
    await page
      .getByRole('option', { name: /^(00|12):01/ })
      .first()
      .waitFor({ timeout: 15_000 });
    await time.press('Escape');
    // The field keeps the seconds of the moment it is set (below), so the next minute is the nearest
    // schedule: set in the minute it is chosen in (not its last 10 s), on today's date (UTC).
    const nextMinute = () => new Date(Math.ceil((Date.now() + 1) / 60_000) * 60_000);
    if (nextMinute().getTime() - Date.now() < 10_000 || nextMinute().getUTCDate() !== new Date().getUTCDate())
      await page.waitForTimeout(nextMinute().getTime() - Date.now() + 1_000);
    const due = nextMinute();
    await time.fill(due.toISOString().slice(11, 16));
    await time.press('Tab');
    // The time field sets the hour and minute of today's date and keeps the current seconds: the
    // schedule is what the form sends, read from its request.
    let sentPublishAt = '';
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/collection-types/api::article.article'))
        sentPublishAt = String((JSON.parse(request.postData() ?? '{}') as { publish_at?: string }).publish_at ?? '');
    });
    await page.getByRole('button', { name: 'Save' }).click();
    await expectNotice('Saved document');
    await page.waitForURL((url) => !url.pathname.endsWith('/create'));
    const slug = await filledValue(field('URL slug'));
    expect(slug).toBe(SCHEDULED.slug);
    // The edit view says when it goes live, in words, with a way to cancel it.
    const schedule = page.getByRole('complementary').filter({ has: page.getByRole('heading', { name: 'Schedule' }) });
    await schedule.getByText(/^Scheduled: [A-Z][a-z]+day, /).waitFor();
    await schedule.getByRole('button', { name: 'Cancel the schedule' }).waitFor();
    expect((await api(`/api/artikel/${slug}`)).status).toBe(404);

    await page.getByRole('link', { name: 'Article', exact: true }).click();
    // The list shows a "Publish at" column: a date for the scheduled article, "-" for the others.
    await page.getByRole('grid').getByText('Publish at', { exact: true }).waitFor();
    const row = page.getByRole('row').filter({ hasText: SCHEDULED.title });
    expect(await row.innerText()).toMatch(/day, /);
    expect(await page.getByRole('row').filter({ hasText: MOVED_SLUG }).innerText()).not.toMatch(/day, /);

    expect(sentPublishAt.slice(0, 16)).toBe(due.toISOString().slice(0, 16));
    // Back on its edit view, left open: it says Published once the article went live, without a reload.
    await page.getByRole('gridcell', { name: SCHEDULED.title, exact: true }).click();
    await page.getByRole('heading', { name: SCHEDULED.title, level: 1 }).waitFor();
    const header = page.locator('main');
    await header.getByText('Draft', { exact: true }).first().waitFor();
    await header
      .getByText('Published', { exact: true })
      .first()
      .waitFor({ timeout: Math.max(0, new Date(sentPublishAt).getTime() - Date.now()) + 45_000 });
    const live = await eventually(
      () => api(`/api/artikel/${slug}`),
      (answer) => answer.status === 200,
      { withinMs: new Date(sentPublishAt).getTime() + 30_000 - Date.now(), everyMs: 500 },
    );
    expect(live.status).toBe(200);
    expect(live.body.data).toMatchObject({
      title: SCHEDULED.title,
      status: 'published',
      publish_at: null,
      published_at: sentPublishAt,
    });
    // The list, loaded again, no longer shows a schedule for it: publishing ended it.
    await page.getByRole('link', { name: 'Article', exact: true }).click();
    await page.reload();
    await page.getByRole('gridcell', { name: SCHEDULED.title, exact: true }).waitFor();
    expect(await page.getByRole('row').filter({ hasText: SCHEDULED.title }).innerText()).not.toMatch(/day, /);
  });

  step('the API reference page the README links renders every route of the OpenAPI document, from the service alone', 90_000, async () => {
    const document = (await api('/api/artikel/openapi.json')).body as unknown as {
      paths: Record<string, Record<string, { summary: string }>>;
    };
    const summaries = Object.values(document.paths).flatMap((operations) =>
      Object.values(operations).map((operation) => operation.summary),
    );
    expect(summaries.length).toBeGreaterThan(5);
    await page.goto(`${baseUrl()}/api/artikel/docs.html`);
    await page.getByRole('heading', { name: /Studio article API/, level: 1 }).waitFor();
    // Redoc writes each operation's summary as a heading of its section (with an anchor link inside).
    for (const summary of summaries) await page.locator('h2').filter({ hasText: summary }).first().waitFor();
  });
});
