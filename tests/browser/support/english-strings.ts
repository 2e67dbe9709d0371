import path from 'node:path';
import type { Page } from 'playwright-core';

/**
 * The English an Indonesian editor must not meet: every string of the English admin (Strapi's admin,
 * Content Manager, Media Library, i18n, Users & Permissions, and the studio's own plugin) whose
 * Indonesian differs from it or is missing, as the admin would show it: the app's own Indonesian
 * (src/admin/translations/id.json) first, then the package's. A string the two languages share
 * ("Email", "Status") is no English to find.
 */
const ROOT = path.join(__dirname, '..', '..', '..');
const STRAPI = path.join(ROOT, 'node_modules', '@strapi');

type Strings = Record<string, unknown>;

function load(file: string): Strings {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const loaded = require(file) as Strings & { default?: Strings };
    return loaded.default ?? loaded;
  } catch {
    return {};
  }
}

/** A package's translations, by the key the admin registers them under (plugins' under their id). */
const PACKAGES: Array<{ dir: string; prefix: string }> = [
  { dir: path.join(STRAPI, 'admin', 'dist', 'admin', 'admin', 'src', 'translations'), prefix: '' },
  { dir: path.join(STRAPI, 'content-manager', 'dist', 'admin', 'translations'), prefix: 'content-manager.' },
  { dir: path.join(STRAPI, 'upload', 'dist', 'admin', 'translations'), prefix: 'upload.' },
  { dir: path.join(STRAPI, 'i18n', 'dist', 'admin', 'translations'), prefix: 'i18n.' },
  { dir: path.join(STRAPI, 'plugin-users-permissions', 'dist', 'admin', 'translations'), prefix: 'users-permissions.' },
  { dir: path.join(ROOT, 'src', 'plugins', 'artikel', 'shared', 'translations'), prefix: 'artikel.' },
];

// What Strapi asks for with an English default only (see tests/unit/strapi-admin-indonesian.test.ts), by the id the app translates.
const ASKED_WITH_DEFAULTS_ONLY: Record<string, string> = {
  'content-manager.plugin.name': 'Content Manager',
  'components.Blocks.blocks.bulletList': 'Bulleted list',
  'components.Blocks.blocks.numberList': 'Numbered list',
  User: 'User',
};

function englishOnly(): Set<string> {
  const appIndonesian = load(path.join(ROOT, 'src', 'admin', 'translations', 'id.json'));
  const found = new Set<string>();
  for (const { dir, prefix } of PACKAGES) {
    const english = { ...load(path.join(dir, 'en.json.js')), ...load(path.join(dir, 'en.json')) };
    const indonesian = { ...load(path.join(dir, 'id.json.js')), ...load(path.join(dir, 'id.json')) };
    for (const [key, text] of Object.entries({ ...english, ...(prefix === '' ? ASKED_WITH_DEFAULTS_ONLY : {}) })) {
      if (typeof text !== 'string' || text.trim() === '' || /[{<]/.test(text)) continue; // placeholders and markup: not whole lines
      const shown = appIndonesian[`${prefix}${key}`] ?? indonesian[key];
      if (shown !== text) found.add(text.trim());
    }
  }
  return found;
}

let known: Set<string> | null = null;

/**
 * The visible lines of the page that are English only, but for the allowed ones (proper nouns,
 * what the editor typed). Read from the page's rendered text: what the editor sees.
 */
export async function englishOn(page: Page, allowed: readonly string[] = []): Promise<string[]> {
  known ??= englishOnly();
  const lines = (await page.locator('body').innerText()).split('\n').map((line) => line.trim());
  return [...new Set(lines.filter((line) => line !== '' && known?.has(line) && !allowed.includes(line)))];
}
