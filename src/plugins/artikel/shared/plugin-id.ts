/** The plugin's id, shared by its server and its admin code (routes, translations, services). */
export const PLUGIN_ID = 'artikel';
