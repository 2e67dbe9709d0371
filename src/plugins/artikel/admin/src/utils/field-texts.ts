import de from '../../../shared/translations/de.json';
import en from '../../../shared/translations/en.json';
import id from '../../../shared/translations/id.json';
import { FIELD_TEXT_MODELS, fieldTextsOf, type FieldTextModelUid, type FieldTexts } from '../../../shared/field-texts';

const TEXTS: Record<string, FieldTexts> = { en: fieldTextsOf(en), de: fieldTextsOf(de), id: fieldTextsOf(id) };
const ENGLISH = TEXTS.en;
const UIDS = Object.keys(FIELD_TEXT_MODELS) as FieldTextModelUid[];

/** One field of the edit view's layout, as the Content Manager's layout hook hands it over. */
interface EditField {
  name: string;
  label?: string;
  hint?: unknown;
  placeholder?: string;
  [other: string]: unknown;
}

interface EditLayoutArguments {
  layout: { layout: EditField[][][]; [other: string]: unknown };
  [other: string]: unknown;
}

/** The part of the admin's Redux store the layout hook reads: the language the admin shows now. */
interface AdminStore {
  getState: () => { admin_app?: { language?: { locale?: string } } };
}

/**
 * The language the admin shows now. The layout hook is a plain function, outside React, so it
 * cannot ask react-intl; the admin hands every waterfall hook its Redux store, whose
 * `admin_app.language.locale` is what react-intl is given (the editor's stored language once signed
 * in, or the one just chosen on the profile page).
 */
function currentLanguage(store: AdminStore | undefined): string {
  return store?.getState().admin_app?.language?.locale ?? 'en';
}

/**
 * One text in the admin's language, only where it still is the English one the server stored:
 * a label or help text an administrator changed in "Configure the view" is shown as they typed it.
 */
function translated(field: string, part: 'label' | 'description' | 'placeholder', shown: unknown, texts: FieldTexts): unknown {
  if (typeof shown !== 'string' || shown === '') return shown;
  for (const uid of UIDS) {
    if (ENGLISH[uid][field]?.[part] === shown) return texts[uid][field]?.[part] ?? shown;
  }
  return shown;
}

/**
 * The Content Manager shows a field's label and help text as stored, untranslated (its edit view
 * reads `metadatas.edit.label` and `.description` as plain strings, with no message id). Its
 * edit-view layout hook ('Admin/CM/pages/EditView/mutate-edit-view-layout') runs each time the
 * edit view opens: there our English texts are replaced by the editor's language.
 */
export function translateEditViewLayout<Arguments extends EditLayoutArguments>(args: Arguments, store?: AdminStore): Arguments {
  const texts = TEXTS[currentLanguage(store)];
  if (!texts || texts === ENGLISH) return args;
  const layout = args.layout.layout.map((panel) =>
    panel.map((row) =>
      row.map((field) => ({
        ...field,
        label: translated(field.name, 'label', field.label, texts) as string | undefined,
        hint: translated(field.name, 'description', field.hint, texts),
        placeholder: translated(field.name, 'placeholder', field.placeholder, texts) as string | undefined,
      })),
    ),
  );
  return { ...args, layout: { ...args.layout, layout } };
}

/**
 * Message ids the Content Manager does look up, in one language: a list view column header is
 * `content-manager.content-types.<uid>.<field>` (with the stored label as its default), and a
 * content type's name is its display name itself. English is left to the stored texts, so that a
 * label an administrator changed shows as they typed it.
 */
export function contentManagerMessages(strings: Record<string, string>, locale: string): Record<string, string> {
  if (locale === 'en') return {};
  const texts = fieldTextsOf(strings);
  const messages: Record<string, string> = {};
  for (const uid of UIDS) {
    for (const [field, text] of Object.entries(texts[uid])) {
      if (text.label) messages[`content-manager.content-types.${uid}.${field}`] = text.label;
    }
    const name = strings[`contentTypes.${FIELD_TEXT_MODELS[uid]}.name`];
    const englishName = (en as Record<string, string>)[`contentTypes.${FIELD_TEXT_MODELS[uid]}.name`];
    if (name && englishName) messages[englishName] = name;
  }
  return messages;
}
