// @joplin/turndown-plugin-gfm ships no typings: its plugins are turndown plugins.
declare module '@joplin/turndown-plugin-gfm' {
  import type TurndownService from 'turndown';

  export const tables: TurndownService.Plugin;
  export const gfm: TurndownService.Plugin;
  export const strikethrough: TurndownService.Plugin;
  export const taskListItems: TurndownService.Plugin;
}
