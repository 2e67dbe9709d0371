import fs from 'node:fs';
import path from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

// Issue "Editors": the admin entirely in Bahasa Indonesia. Strapi's own Indonesian (its admin and
// Content Manager files) lacks about half of their strings and the whole Media Library; the app's
// admin extension (src/admin/app.tsx, `config.translations.id`) supplies the rest from
// src/admin/translations/id.json, and corrects a few of Strapi's own.

const ROOT = path.resolve(__dirname, '../..');
const OURS = JSON.parse(fs.readFileSync(path.join(ROOT, 'src/admin/translations/id.json'), 'utf8')) as Record<string, string>;

/** A translation file of a Strapi package's compiled admin (CommonJS: the strings as its exports, or as a default export); empty when it has none. */
function strapiStrings(file: string): Record<string, string> {
  const absolute = path.join(ROOT, 'node_modules/@strapi', file);
  if (!fs.existsSync(absolute)) return {};
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a compiled file outside the package's exports
  const loaded = require(absolute) as Record<string, unknown> & { default?: Record<string, unknown> };
  const strings = loaded.default ?? loaded;
  return Object.fromEntries(Object.entries(strings).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** Each package's English and Indonesian, with the message ids as the admin asks for them (plugins' prefixed). */
const PACKAGES = [
  { prefix: '', folder: 'admin/dist/admin/admin/src/translations' },
  { prefix: 'content-manager.', folder: 'content-manager/dist/admin/translations' },
  { prefix: 'upload.', folder: 'upload/dist/admin/translations' },
].map(({ prefix, folder }) => {
  const prefixed = (strings: Record<string, string>) =>
    Object.fromEntries(Object.entries(strings).map(([key, text]) => [prefix + key, text]));
  return { prefix, english: prefixed(strapiStrings(`${folder}/en.json.js`)), indonesian: prefixed(strapiStrings(`${folder}/id.json.js`)) };
});
/**
 * Ids Strapi's admin asks for with an English default only, which no English file of its holds
 * (found by the browser suite's walk for English in the Indonesian admin): the Content Manager's
 * name in the main menu, the Markdown editor's list buttons, and the name of Users & Permissions'
 * content type in the Content Manager's menu (its display name is the id).
 */
const ASKED_WITH_DEFAULTS_ONLY: Record<string, string> = {
  'content-manager.plugin.name': 'Content Manager',
  'components.Blocks.blocks.bulletList': 'Bulleted list',
  'components.Blocks.blocks.numberList': 'Numbered list',
  User: 'User',
};
const ENGLISH = Object.assign({}, ...PACKAGES.map((entry) => entry.english), ASKED_WITH_DEFAULTS_ONLY) as Record<string, string>;
const STRAPI_INDONESIAN = Object.assign({}, ...PACKAGES.map((entry) => entry.indonesian)) as Record<string, string>;

/** What a message needs of its translation: the names of its arguments and of its tags, in any order. */
function partsOf(message: string): string[] {
  const parts: string[] = [];
  const walk = (elements: MessageFormatElement[]): void => {
    for (const element of elements) {
      if (element.type === TYPE.argument || element.type === TYPE.number || element.type === TYPE.date || element.type === TYPE.time)
        parts.push(`{${element.value}}`);
      if (element.type === TYPE.plural || element.type === TYPE.select) {
        parts.push(`{${element.value}}`);
        for (const option of Object.values(element.options)) walk(option.value);
      }
      if (element.type === TYPE.tag) {
        parts.push(`<${element.value}>`);
        walk(element.children);
      }
    }
  };
  // Strapi's own English has selects without an `other` branch, which react-intl takes.
  walk(parse(message, { ignoreTag: false, requiresOtherClause: false }));
  return [...new Set(parts)].sort();
}

describe("the admin's Indonesian", () => {
  it('has every string of the admin, the Content Manager and the Media Library in Indonesian', () => {
    expect(Object.keys(ENGLISH).length).toBeGreaterThan(1500);
    const missing = Object.keys(ENGLISH).filter((key) => !(key in OURS) && !(key in STRAPI_INDONESIAN));
    expect(missing).toEqual([]);
  });

  it('translates only strings Strapi has, none of them empty', () => {
    expect(Object.keys(OURS).filter((key) => !(key in ENGLISH))).toEqual([]);
    expect(Object.entries(OURS).filter(([, text]) => text.trim() === '')).toEqual([]);
  });

  it('keeps each message’s arguments, plurals and tags as English has them', () => {
    const differing = Object.entries(OURS)
      .filter(([key, text]) => partsOf(text).join() !== partsOf(ENGLISH[key]).join())
      .map(([key, text]) => ({ key, english: ENGLISH[key], indonesian: text }));
    expect(differing).toEqual([]);
  });

  it('names the slug button for what it does, where Strapi’s Indonesian says "updated"', () => {
    expect(STRAPI_INDONESIAN['content-manager.components.uid.regenerate']).toBe('diperbarui');
    expect(OURS['content-manager.components.uid.regenerate']).toBe('Buat ulang');
  });
});
