// @orama/stemmers publishes each language as a subpath export, which the project's "Node" module
// resolution does not read: the one the plugin uses, as its dist/en.d.ts declares it.
declare module '@orama/stemmers/english' {
  export function stemmer(word: string): string;
  export const language: string;
}
