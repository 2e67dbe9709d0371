import fs from 'node:fs';
import path from 'node:path';
import de from '../../src/plugins/artikel/shared/translations/de.json';
import en from '../../src/plugins/artikel/shared/translations/en.json';
import id from '../../src/plugins/artikel/shared/translations/id.json';
import { FIELD_LIMITS } from '../../src/plugins/artikel/server/src/utils/field-limits';
import { FIELD_TEXT_MODELS, fieldTextsOf, type FieldTextModelUid } from '../../src/plugins/artikel/shared/field-texts';
import { ADMIN_LOCALES } from '../../src/plugins/artikel/shared/admin-locales';

const PLUGIN = path.resolve(__dirname, '../../src/plugins/artikel');
const FILES: Record<string, Record<string, string>> = { en, de, id };
const SCHEMAS: Record<FieldTextModelUid, string> = {
  'api::article.article': 'src/api/article/content-types/article/schema.json',
  'api::category.category': 'src/api/category/content-types/category/schema.json',
};

/** The names of a message's arguments ({count}, {count, plural, …}), which every language must use alike. */
const argumentsOf = (message: string) => [...message.matchAll(/\{\s*(\w+)\s*[,}]/g)].map((match) => match[1]).sort();

/** Every file under the plugin's admin code, for the message ids it asks for. */
function adminSources(folder = path.join(PLUGIN, 'admin/src')): string[] {
  return fs
    .readdirSync(folder, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? adminSources(path.join(folder, entry.name))
        : /\.tsx?$/.test(entry.name)
          ? [fs.readFileSync(path.join(folder, entry.name), 'utf8')]
          : [],
    );
}

describe("the plugin's admin strings", () => {
  it('has a translation file for every language the admin offers', () => {
    expect(Object.keys(FILES).sort()).toEqual([...ADMIN_LOCALES].sort());
  });

  it.each(['de', 'id'])('has in %s exactly the strings English has, none of them empty', (locale) => {
    const strings = FILES[locale];
    expect(Object.keys(strings).sort()).toEqual(Object.keys(en).sort());
    expect(Object.entries(strings).filter(([, text]) => text.trim() === '')).toEqual([]);
  });

  it.each(['de', 'id'])('uses in %s the same message arguments as English', (locale) => {
    const strings = FILES[locale];
    const differing = Object.entries(en).filter(([key, text]) => argumentsOf(text).join() !== argumentsOf(strings[key]).join());
    expect(differing).toEqual([]);
  });

  it('has in English every message id the admin code asks for', () => {
    const asked = adminSources().flatMap((source) => [...source.matchAll(/getTranslation\(\s*'([^']+)'/g)].map((match) => match[1]));
    expect(asked.length).toBeGreaterThan(3);
    expect(asked.filter((key) => !(key in en))).toEqual([]);
  });

  it('describes only fields the content types have, each with a label', () => {
    for (const strings of Object.values(FILES)) {
      const texts = fieldTextsOf(strings);
      for (const uid of Object.keys(FIELD_TEXT_MODELS) as FieldTextModelUid[]) {
        const attributes = Object.keys(JSON.parse(fs.readFileSync(path.resolve(__dirname, '../..', SCHEMAS[uid]), 'utf8')).attributes);
        expect(Object.keys(texts[uid]).filter((field) => !attributes.includes(field))).toEqual([]);
        expect(Object.entries(texts[uid]).filter(([, text]) => !text.label)).toEqual([]);
      }
    }
    // Every key under fields. is one the texts are read from (a misspelt one would be silently ignored).
    const read = Object.values(fieldTextsOf(en)).reduce((count, fields) => count + Object.values(fields).flatMap(Object.keys).length, 0);
    expect(read).toBe(Object.keys(en).filter((key) => key.startsWith('fields.')).length);
  });

  it("names the SEO description's character limit, as the service enforces it, in every language", () => {
    for (const strings of Object.values(FILES)) {
      expect(strings['fields.article.meta_description.description']).toContain(String(FIELD_LIMITS.meta_description));
    }
  });
});
