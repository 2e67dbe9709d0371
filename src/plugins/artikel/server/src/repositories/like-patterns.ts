/** Text matched literally in a LIKE pattern written with ESCAPE '\': its wildcards and backslashes escaped. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
