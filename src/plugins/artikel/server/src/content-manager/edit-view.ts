import type { Core } from '@strapi/strapi';
import english from '../../../shared/translations/en.json';
import { fieldTextsOf, type FieldText, type FieldTexts } from '../../../shared/field-texts';
import { ARTICLE_UID } from '../constants';

interface FieldMetadata {
  edit?: { label?: string; description?: string; placeholder?: string };
  list?: { label?: string };
}

interface LayoutField {
  name: string;
  size: number;
}

interface Configuration {
  metadatas?: Record<string, FieldMetadata>;
  layouts?: { edit?: LayoutField[][]; list?: string[] };
  [key: string]: unknown;
}

interface ContentTypesService {
  findContentType: (uid: string) => unknown;
  findConfiguration: (contentType: unknown) => Promise<Configuration>;
  updateConfiguration: (contentType: unknown, configuration: Configuration) => Promise<unknown>;
}

/**
 * What the edit form tells an editor about each field (which fill themselves, what the slug is
 * for), in English: the plugin's admin shows the editor's language in place of these as long as
 * they are unchanged (see admin/src/utils/field-texts.ts).
 */
const FIELD_TEXTS: FieldTexts = fieldTextsOf(english);

/** Fields that must come after another in the edit form: the free-text cover URL after the picker, the camera-data switch after the gallery. */
const PLACED_AFTER: Record<string, Array<{ field: string; after: string }>> = {
  [ARTICLE_UID]: [
    { field: 'cover_image_url', after: 'cover' },
    { field: 'hide_exif', after: 'gallery' },
  ],
};

/**
 * Columns the list view shows: which articles are scheduled, and for when; right after the title,
 * where an editor sees it at 1440 px (issue "Editors": at the end of the row it was off-screen).
 */
const LIST_COLUMNS: Record<string, Array<{ column: string; after: string }>> = {
  [ARTICLE_UID]: [{ column: 'publish_at', after: 'title' }],
};

/** The list's columns with each missing one placed after its neighbour (at the end without it); present ones stay where they are. */
function withListColumns(list: string[], columns: Array<{ column: string; after: string }>): string[] {
  const placed = [...list];
  for (const { column, after } of columns) {
    if (placed.includes(column)) continue;
    const at = placed.indexOf(after);
    placed.splice(at === -1 ? placed.length : at + 1, 0, column);
  }
  return placed;
}

/** Text Strapi gave a field by default (its attribute name, or nothing), which an editor has not changed. */
const isDefault = (value: string | undefined, field: string) => value === undefined || value === '' || value === field;

function withFieldTexts(configuration: Configuration, texts: Record<string, FieldText>): Configuration {
  const metadatas = { ...configuration.metadatas };
  for (const [field, text] of Object.entries(texts)) {
    const metadata = metadatas[field];
    if (!metadata) continue;
    const edit = { ...metadata.edit };
    if (text.label && isDefault(edit.label, field)) edit.label = text.label;
    if (text.description && isDefault(edit.description, '')) edit.description = text.description;
    if (text.placeholder && isDefault(edit.placeholder, '')) edit.placeholder = text.placeholder;
    const list = { ...metadata.list };
    if (text.label && isDefault(list.label, field)) list.label = text.label;
    metadatas[field] = { ...metadata, edit, list };
  }
  return { ...configuration, metadatas };
}

/** The edit layout with `field` in a row of its own right after the row holding `after`, if it stood before it. */
function withFieldAfter(layout: LayoutField[][], field: string, after: string): LayoutField[][] {
  const rowOf = (name: string) => layout.findIndex((row) => row.some((entry) => entry.name === name));
  const fieldRow = rowOf(field);
  const afterRow = rowOf(after);
  if (fieldRow === -1 || afterRow === -1 || fieldRow > afterRow) return layout;
  const entry = layout[fieldRow].find((candidate) => candidate.name === field) as LayoutField;
  const rows = layout.map((row) => row.filter((candidate) => candidate.name !== field));
  rows.splice(afterRow + 1, 0, [entry]);
  return rows.filter((row) => row.length > 0);
}

/**
 * Labels, help texts and field order of the Content Manager's forms for articles and categories,
 * written into its stored configuration at start. Only what still holds Strapi's defaults is
 * changed: whatever an administrator set in "Configure the view" stays.
 */
export async function explainEditViews(strapi: Core.Strapi): Promise<void> {
  const contentTypes = strapi.plugin('content-manager')?.service('content-types') as ContentTypesService | undefined;
  if (!contentTypes) return;
  for (const [uid, texts] of Object.entries(FIELD_TEXTS)) {
    const contentType = contentTypes.findContentType(uid);
    if (!contentType) continue;
    const stored = await contentTypes.findConfiguration(contentType);
    let configuration = withFieldTexts(stored, texts);
    let edit = configuration.layouts?.edit;
    for (const { field, after } of PLACED_AFTER[uid] ?? []) if (edit) edit = withFieldAfter(edit, field, after);
    const list = configuration.layouts?.list;
    configuration = {
      ...configuration,
      layouts: { ...configuration.layouts, edit, ...(list ? { list: withListColumns(list, LIST_COLUMNS[uid] ?? []) } : {}) },
    };
    if (JSON.stringify(configuration) !== JSON.stringify(stored)) await contentTypes.updateConfiguration(contentType, configuration);
  }
}
