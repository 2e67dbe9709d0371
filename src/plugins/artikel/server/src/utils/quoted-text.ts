// A value is quoted in a message up to this many characters: a slug in a path, or a query
// parameter, may hold 16 KB, and a message repeats none of it past this.
const QUOTED_CHARACTERS = 200;

/** A value a client sent, quoted for a message ("…" when cut short at QUOTED_CHARACTERS). */
export function quotedText(value: string): string {
  return JSON.stringify(value.length > QUOTED_CHARACTERS ? `${value.slice(0, QUOTED_CHARACTERS)}…` : value);
}
