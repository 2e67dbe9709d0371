import { errors } from '@strapi/utils';
import type { AdminLocale } from '../../../shared/admin-locales';
import type { FieldError } from '../validation/validate';
import german from '../../../shared/translations/de.json';
import indonesian from '../../../shared/translations/id.json';

type Translated = Exclude<AdminLocale, 'en'>;

const TRANSLATIONS: Record<Translated, Record<string, string>> = { id: indonesian, de: german };

/** What is written of the edited thing: an article or a category (their fields' labels differ). */
export type EditedKind = 'article' | 'category';

/**
 * A field's label as the editor sees it above the field (shared/translations), without the hint
 * some carry in brackets ("URL sampul (hanya untuk foto …)" is "URL sampul" in a message); the
 * field's name when it has none.
 */
function labelOf(kind: EditedKind, field: string, language: Translated): string {
  const label = TRANSLATIONS[language][`fields.${kind}.${field}.label`];
  return label === undefined ? field : label.split(' (')[0];
}

/**
 * The plugin's rules' messages (validation/field-rules.ts, services/article-rules.ts, utils/slug-text.ts,
 * validation/schedule.ts) and what each says in the editors' languages. Every pattern is anchored
 * and has no nested repetition: it runs in time linear in the message. A message none matches
 * stays in English.
 */
const MESSAGES: Array<{ pattern: RegExp; say: Record<Translated, (label: string, match: RegExpExecArray) => string> }> = [
  {
    pattern: /^([a-z_]+) must be at most (\d+) characters$/,
    say: {
      id: (label, match) => `${label} paling banyak ${match[2]} karakter`,
      de: (label, match) => `${label} darf höchstens ${match[2]} Zeichen lang sein`,
    },
  },
  {
    pattern: /^publish_at must be in the future; publish now instead$/,
    say: {
      id: (label) => `Waktu di "${label}" harus di masa depan; untuk terbit sekarang, pilih Terbitkan`,
      de: (label) => `Der Zeitpunkt unter „${label}“ muss in der Zukunft liegen; um jetzt zu veröffentlichen, wählen Sie Veröffentlichen`,
    },
  },
  {
    pattern: /^publish_at must be a date and time \(ISO-8601 with a time zone\)$/,
    say: {
      id: (label) => `"${label}" harus berupa tanggal dan jam`,
      de: (label) => `„${label}“ muss ein Datum mit Uhrzeit sein`,
    },
  },
  {
    pattern: /^cover_image_url must be an absolute https URL$/,
    say: {
      id: (label) => `${label} harus berupa alamat lengkap yang diawali https://`,
      de: (label) => `${label} muss eine vollständige Adresse sein, die mit https:// beginnt`,
    },
  },
  {
    pattern: /^slug "([^"]{0,200})" is reserved for a route$/,
    say: {
      id: (label, match) => `${label} "${match[1]}" sudah dipakai oleh alamat layanan; pilih slug lain`,
      de: (label, match) => `${label} "${match[1]}" ist für eine Adresse des Dienstes reserviert; wählen Sie einen anderen`,
    },
  },
  {
    pattern: /^slug must contain at least one letter or digit$/,
    say: {
      id: (label) => `${label} harus memuat setidaknya satu huruf atau angka`,
      de: (label) => `${label} muss mindestens einen Buchstaben oder eine Ziffer enthalten`,
    },
  },
  {
    pattern: /^tags may hold at most (\d+) tags$/,
    say: {
      id: (label, match) => `${label}: paling banyak ${match[1]} tag`,
      de: (label, match) => `${label}: höchstens ${match[1]} Tags`,
    },
  },
  {
    pattern: /^each tag must be at most (\d+) characters$/,
    say: {
      id: (label, match) => `${label}: setiap tag paling banyak ${match[1]} karakter`,
      de: (label, match) => `${label}: jedes Tag darf höchstens ${match[1]} Zeichen lang sein`,
    },
  },
  {
    pattern: /^content could not be processed (in time|as written): simplify its markup \(deeply nested elements\)$/,
    say: {
      id: (label) => `${label} tidak dapat diproses: sederhanakan susunan HTML-nya (elemen yang bersarang terlalu dalam)`,
      de: (label) => `${label} konnte nicht verarbeitet werden: vereinfachen Sie das Markup (zu tief verschachtelte Elemente)`,
    },
  },
  {
    pattern: /^([a-z_]+) must not contain the NUL character \(U\+0000\)$/,
    say: {
      id: (label) => `${label} tidak boleh memuat karakter NUL (U+0000)`,
      de: (label) => `${label} darf das Zeichen NUL (U+0000) nicht enthalten`,
    },
  },
];

/** One field's message in the editor's language, with the field's label; as it was when none matches. */
function translate(fieldError: FieldError, kind: EditedKind, language: Translated): string {
  const label = labelOf(kind, fieldError.path[0] ?? '', language);
  for (const { pattern, say } of MESSAGES) {
    const match = pattern.exec(fieldError.message);
    if (match !== null) return say[language](label, match);
  }
  return fieldError.message;
}

/**
 * A refusal of the plugin's rules as an editor reads it in the admin: each field's message in
 * their language with the field's label ("Judul paling banyak 255 karakter"), the same fields in
 * `details.errors`. English (and an error that is not a validation of fields) is returned as it is.
 */
export function inEditorLanguage(error: unknown, kind: EditedKind, language: AdminLocale | null): unknown {
  if (language === null || language === 'en' || !(error instanceof errors.ValidationError)) return error;
  const fieldErrors = (error.details as { errors?: FieldError[] } | undefined)?.errors;
  if (!Array.isArray(fieldErrors) || fieldErrors.length === 0) return error;
  const translated = fieldErrors.map((fieldError) => ({ ...fieldError, message: translate(fieldError, kind, language) }));
  return new errors.ValidationError(translated.map((fieldError) => fieldError.message).join('; '), { errors: translated });
}
