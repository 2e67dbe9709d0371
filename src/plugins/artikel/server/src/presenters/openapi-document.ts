/**
 * The OpenAPI document as served: the one kept in the repository (openapi/openapi.json), with the
 * configured language (ARTIKEL_LANGUAGE) as the example wherever the document shows the language
 * an answer names, so the reference shows what this service answers. The file itself holds the
 * default, `id`.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Where the document shows a language: each an `examples` list whose values are the language. */
export const LANGUAGE_EXAMPLES: ReadonlyArray<readonly string[]> = [
  ['components', 'schemas', 'BlogPosting', 'properties', 'inLanguage', 'examples'],
  ['components', 'schemas', 'JsonFeed', 'properties', 'language', 'examples'],
];

const isObject = (value: Json | undefined): value is { [key: string]: Json } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

let served: { language: string; document: unknown } | null = null;

/** The document with the language's examples; built once per language (the setting does not change while the service runs). */
export function openApiDocumentFor(document: unknown, language: string): unknown {
  if (served?.language === language) return served.document;
  // A JSON round trip, not structuredClone: the copy's objects must be plain objects of this realm,
  // which the caching middleware recognizes as a JSON body to tag (structuredClone's are not, under jest's VM).
  const copy = JSON.parse(JSON.stringify(document)) as Json;
  for (const path of LANGUAGE_EXAMPLES) {
    let parent: Json | undefined = copy;
    for (const key of path.slice(0, -1)) parent = isObject(parent) ? parent[key] : undefined;
    const last = path[path.length - 1];
    // A path the document lost is a mistake in the repository, found by the tests, never a visitor's.
    if (!isObject(parent) || !Array.isArray(parent[last])) throw new Error(`artikel: openapi.json has no ${path.join('/')}`);
    parent[last] = [language];
  }
  served = { language, document: copy };
  return copy;
}
