import { PLUGIN_ID } from '../../../shared/plugin-id';

/** The id of one of this plugin's admin strings, as registered by registerTrads. */
export const getTranslation = (id: string) => `${PLUGIN_ID}.${id}`;

/** Each string of a translation file under the plugin's prefix. */
export function prefixTranslations(strings: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(strings).map(([id, text]) => [getTranslation(id), text]));
}
