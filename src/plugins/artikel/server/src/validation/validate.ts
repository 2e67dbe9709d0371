import { errors, yup } from '@strapi/utils';
import { quotedText } from '../utils/quoted-text';
import { closestSpellings } from '../domain/spelling-suggestions';

export interface FieldError {
  path: string[];
  message: string;
  name: 'ValidationError';
}

/** A string field whose wrong type is named plainly ("tags must be a string"), for every schema here. */
export function textValue(): yup.StringSchema {
  // Not a template literal: yup fills in ${path} itself.
  return yup.string().typeError('${path} must be a string');
}

/**
 * The input a schema admits, as a type. yup 0.32 infers a field the input may leave out as a key
 * always present whose value may be undefined; here it is an optional key, as it arrives.
 */
export type InferInput<Schema extends yup.AnyObjectSchema> = OptionalWhereUndefined<yup.InferType<Schema>>;

type OptionalWhereUndefined<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

export function fieldError(field: string | null, message: string): FieldError {
  return { path: field === null ? [] : [field], message, name: 'ValidationError' };
}

/**
 * Strapi's ValidationError for these field errors. Its message names every one ("title is required;
 * views is not an allowed field"), because workflow tools show the message and not the details.
 */
export function validationError(fieldErrors: FieldError[]): errors.ValidationError {
  const message = fieldErrors.map((fieldError) => fieldError.message).join('; ');
  return new errors.ValidationError(message, { errors: fieldErrors });
}

// PostgreSQL cannot store it in text, and no reader wants it: refused on every store alike.
const NUL = '\u0000';

/**
 * Every field that breaks the schema, once each (the first rule it breaks). A text holding a NUL
 * character is refused whatever the schema says.
 */
export async function fieldErrorsOf(schema: yup.AnyObjectSchema, input: object): Promise<FieldError[]> {
  const fieldErrors: FieldError[] = Object.entries(input)
    .filter(([field, value]) => field in schema.fields && typeof value === 'string' && value.includes(NUL))
    .map(([field]) => fieldError(field, `${field} must not contain the NUL character (U+0000)`));
  const reported = new Set(fieldErrors.map((error) => error.path.join('.')));
  try {
    await schema.validate(input, { abortEarly: false, strict: true, stripUnknown: false });
    return fieldErrors;
  } catch (error) {
    if (!(error instanceof yup.ValidationError)) throw error;
    const inner = error.inner.length > 0 ? error.inner : [error];
    for (const broken of inner) {
      const path = broken.path ?? '';
      if (reported.has(path)) continue;
      reported.add(path);
      fieldErrors.push(fieldError(broken.path || null, broken.message));
    }
    return fieldErrors;
  }
}

// What each schema says of an empty input, which is most public reads' query: validation is strict
// (it never transforms), so the answer is the schema's alone, and yup need not run on every read
// (6 % of an uncached list's time).
const emptyInputErrors = new WeakMap<yup.AnyObjectSchema, Promise<FieldError[]>>();

function errorsOfEmptyInput(schema: yup.AnyObjectSchema): Promise<FieldError[]> {
  let errors = emptyInputErrors.get(schema);
  if (errors === undefined) {
    errors = fieldErrorsOf(schema, {});
    emptyInputErrors.set(schema, errors);
  }
  return errors;
}

// Names clients reach for that the API spells otherwise: a query's kategori is a body's category,
// and other APIs' paging and search names.
const OTHER_NAMES: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    category: ['kategori'],
    categories: ['kategori', 'category'],
    kategori: ['category'],
    tags: ['tag'],
    tag: ['tags'],
    search: ['q'],
    query: ['q'],
    per_page: ['limit'],
    page_size: ['limit'],
    pagesize: ['limit'],
    size: ['limit'],
    sort_by: ['sort'],
    order: ['sort'],
    image: ['cover_image_url'],
    cover: ['cover_image_url'],
    body: ['content'],
    text: ['content'],
    excerpt: ['summary'],
    description: ['summary', 'meta_description'],
    name: ['title'],
  }),
);

// A key longer than this is no misspelling of any field (and is not compared letter by letter).
const LONGEST_GUESSED_KEY = 40;

/**
 * "views is not an allowed field", and the field meant when the key is another name or a near
 * spelling of one; `what` names what the key is not (an MCP tool's arguments are not fields).
 */
export function unknownFieldMessage(key: string, known: ReadonlySet<string>, what = 'an allowed field'): string {
  const folded = key.toLowerCase();
  const meant =
    (OTHER_NAMES.get(folded) ?? []).find((name) => known.has(name)) ??
    (folded.length <= LONGEST_GUESSED_KEY ? closestSpellings(folded, [...known])[0] : undefined) ??
    (known.has(folded) && folded !== key ? folded : undefined);
  const allowed = `allowed: ${[...known].join(', ')}`;
  return meant === undefined ? `${key} is not ${what} (${allowed})` : `${key} is not ${what}: did you mean ${meant}? (${allowed})`;
}

// Unknown keys named one by one, at most; one error says how many more. Each names the allowed
// keys again: 998 unknown query parameters made an answer of 240 KB, as long to write as to refuse.
const MOST_NAMED_UNKNOWN_KEYS = 20;

/** Where validated input comes from: its name in a refusal, and what its keys are called. */
const INPUT_SOURCES = {
  body: { name: 'The request body', keys: 'fields' },
  query: { name: 'The query', keys: 'parameters' },
  path: { name: 'The path', keys: 'parts' },
} as const;
export type InputSource = keyof typeof INPUT_SOURCES;

/**
 * Validates input against a schema and rejects keys the schema does not list. Every offending
 * field is reported, each under its own path, in Strapi's ValidationError body (unknown keys up to
 * MOST_NAMED_UNKNOWN_KEYS, then how many more).
 */
export async function validateInput<T>(schema: yup.AnyObjectSchema, input: unknown, source: InputSource): Promise<T> {
  const { name, keys: kind } = INPUT_SOURCES[source];
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw validationError([fieldError(null, `${name} must be a JSON object`)]);
  }
  const keys = Object.keys(input);
  const known = new Set(Object.keys(schema.fields));
  const unknownKeys = keys.filter((key) => !known.has(key));
  const unknownFields = unknownKeys.slice(0, MOST_NAMED_UNKNOWN_KEYS).map((key) => fieldError(key, unknownFieldMessage(key, known)));
  if (unknownKeys.length > MOST_NAMED_UNKNOWN_KEYS) {
    const more = unknownKeys.length - MOST_NAMED_UNKNOWN_KEYS;
    unknownFields.push(fieldError(null, `and ${more} more ${kind} are not allowed (allowed: ${[...known].join(', ')})`));
  }
  const fieldErrors = [...unknownFields, ...(await (keys.length === 0 ? errorsOfEmptyInput(schema) : fieldErrorsOf(schema, input)))];
  if (fieldErrors.length > 0) throw validationError(fieldErrors);
  return input as T;
}

/**
 * Checks the fields a document write carries that these rules cover (others, such as relations
 * and media, are Strapi's to check), and refuses the write with one 400 naming every offending field.
 */
export async function validatePresentFields(rules: Record<string, yup.StringSchema>, data: Record<string, unknown>): Promise<void> {
  const present = Object.keys(rules).filter((field) => field in data);
  const schema = yup.object(Object.fromEntries(present.map((field) => [field, rules[field].nullable()])));
  const fieldErrors = await fieldErrorsOf(schema, Object.fromEntries(present.map((field) => [field, data[field]])));
  if (fieldErrors.length > 0) throw validationError(fieldErrors);
}

const INDEX = /^\d+$/;

/**
 * The values a parameter was sent with. Strapi's query parser makes a repeated parameter a list,
 * and one repeated more than 20 times an object keyed by position ("0", "1", …): both are lists here.
 */
function valuesOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value !== null && typeof value === 'object' && Object.keys(value).length > 0 && Object.keys(value).every((key) => INDEX.test(key)))
    return Object.values(value);
  return [value];
}

/**
 * A query with each parameter as one value. A parameter sent more than once with the same value
 * (automation tools repeat the first request's parameters on every next URL) counts once; with
 * different values, or as an object (`limit[a]=1`), it is refused, named, with what to do.
 */
export function singleValuedQuery(query: unknown): unknown {
  if (query === null || typeof query !== 'object' || Array.isArray(query)) return query;
  const fieldErrors: FieldError[] = [];
  const single: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    const values = valuesOf(value);
    if (values.some((item) => item !== null && typeof item === 'object')) {
      fieldErrors.push(fieldError(name, `${name} must be one value, not an object (${name}[…])`));
      continue;
    }
    const distinct = [...new Set(values.map(String))];
    if (distinct.length > 1) {
      // At most three of them, however many were sent.
      const listed = distinct.slice(0, 3).map(quotedText);
      const last = distinct.length > 3 ? `${distinct.length - 2} more` : listed.pop();
      const message = `${name} was sent with different values (${listed.join(', ')} and ${last}): send it once`;
      fieldErrors.push(fieldError(name, message));
      continue;
    }
    single[name] = values[0];
  }
  if (fieldErrors.length > 0) throw validationError(fieldErrors);
  return single;
}

/**
 * A query string's parameters checked against a schema: one value each (see singleValuedQuery),
 * only those the schema lists. A parameter it does not list is refused as such, however it was
 * sent (its values are not repeated back).
 */
export function validateQuery<T>(schema: yup.AnyObjectSchema, query: unknown): Promise<T> {
  if (query === null || typeof query !== 'object' || Array.isArray(query)) return validateInput<T>(schema, query, 'query');
  const entries = Object.entries(query);
  const listed = Object.fromEntries(entries.filter(([name]) => name in schema.fields));
  const unlisted = Object.fromEntries(entries.filter(([name]) => !(name in schema.fields)));
  return validateInput<T>(schema, { ...unlisted, ...(singleValuedQuery(listed) as object) }, 'query');
}
