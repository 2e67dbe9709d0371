/**
 * The Content Manager's labels, help texts and placeholders of this service's content types live in
 * the plugin's translation files (admin/src/translations), under `fields.<model>.<field>.<part>`,
 * beside the plugin's other strings. The server stores the English ones in the Content Manager's
 * configuration (Strapi shows those as typed); the admin puts the editor's language in their place.
 */
export const FIELD_TEXT_MODELS = {
  'api::article.article': 'article',
  'api::category.category': 'category',
} as const;

export type FieldTextModelUid = keyof typeof FIELD_TEXT_MODELS;

export const FIELD_TEXT_PARTS = ['label', 'description', 'placeholder'] as const;

export type FieldTextPart = (typeof FIELD_TEXT_PARTS)[number];

export type FieldText = Partial<Record<FieldTextPart, string>>;

/** Per content type, per field: its texts in one language. */
export type FieldTexts = Record<FieldTextModelUid, Record<string, FieldText>>;

const KEY = /^fields\.([a-z]+)\.([a-z_]+)\.(label|description|placeholder)$/;

/** The key of one text in a translation file. */
export function fieldTextKey(uid: FieldTextModelUid, field: string, part: FieldTextPart): string {
  return `fields.${FIELD_TEXT_MODELS[uid]}.${field}.${part}`;
}

/** The field texts of one translation file, by content type and field. */
export function fieldTextsOf(strings: Record<string, string>): FieldTexts {
  const texts: FieldTexts = { 'api::article.article': {}, 'api::category.category': {} };
  const uidOf = new Map<string, FieldTextModelUid>(
    Object.entries(FIELD_TEXT_MODELS).map(([uid, model]) => [model, uid as FieldTextModelUid]),
  );
  for (const [key, text] of Object.entries(strings)) {
    const match = KEY.exec(key);
    const uid = match ? uidOf.get(match[1]) : undefined;
    if (!match || !uid) continue;
    const field = (texts[uid][match[2]] ??= {});
    field[match[3] as FieldTextPart] = text;
  }
  return texts;
}
