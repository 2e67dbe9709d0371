import { type yup, z } from '@strapi/utils';
import { unknownFieldMessage } from '../validation/validate';

interface FieldDescription {
  type?: string;
  oneOf?: unknown[];
  tests?: Array<{ name?: string }>;
}

/** "a", "b" or "c", as the REST API's messages list allowed values. */
const alternatives = (values: string[]): string => {
  const quoted = values.map((value) => JSON.stringify(value));
  return quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
};

/** A whole-number argument within bounds; a REST query parameter is text, so its digits are taken too. */
export function wholeNumber(name: string, least: number, most: number): z.ZodType {
  const message = `${name} must be a whole number from ${least} to ${most}`;
  const error = (issue: { input?: unknown }) => (issue.input === undefined ? `${name} is required` : message);
  return z.union(
    [z.number({ error }).int({ error }).min(least, { error }).max(most, { error }), z.string({ error }).regex(/^\d{1,16}$/, { error })],
    {
      error,
    },
  );
}

/**
 * A tool's input schema from the yup schema that validates the same input on the REST route: the
 * same field names, the ones it requires (in the schema's `required`), the values it allows. The
 * tool's handler still runs that yup schema, which holds every rule (lengths, https, tags, dates):
 * the JSON Schema an MCP client sees describes the input, and the one validation decides.
 */
export function inputShapeOf(
  schema: yup.AnyObjectSchema,
  descriptions: Record<string, string>,
  options: { numbers?: Readonly<Record<string, z.ZodType>>; omit?: readonly string[] } = {},
): Record<string, z.ZodType> {
  const fields = (schema.describe() as { fields: Record<string, FieldDescription> }).fields;
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(fields)) {
    if (options.omit?.includes(name)) continue;
    const allowed = (field.oneOf ?? []).filter((value): value is string => typeof value === 'string');
    const required = (field.tests ?? []).some((test) => test.name === 'required');
    // Refused in the REST API's words: the MCP server puts the check's messages in its tool error.
    const error = (issue: { input?: unknown }) => (issue.input === undefined ? `${name} is required` : undefined);
    let type: z.ZodType =
      allowed.length > 0
        ? z.enum(allowed as [string, ...string[]], { error: (issue) => error(issue) ?? `${name} must be ${alternatives(allowed)}` })
        : z.string({ error: (issue) => error(issue) ?? `${name} must be a string` });
    const number = options.numbers?.[name];
    if (number !== undefined) type = number;
    const help = descriptions[name] ?? '';
    if (help) type = type.describe(help);
    shape[name] = required ? type : type.optional();
  }
  return shape;
}

/**
 * A tool's input: these arguments and no other. An unknown one is a tool error that names it, the
 * argument meant when it is close to one ("category" → kategori), or those the tool takes; an agent
 * whose filter was silently dropped would report every article as matching.
 */
export function toolInput(tool: string, shape: Record<string, z.ZodType>) {
  const known = new Set(Object.keys(shape));
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `${tool}: ${(issue.keys as string[]).map((key) => unknownFieldMessage(key, known, 'an argument of this tool')).join('; ')}`
        : undefined,
  });
}

/** The REST query of a tool's arguments: every value as the text a URL would carry. */
export function asQuery(args: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(args)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, typeof value === 'string' ? value : String(value)]),
  );
}
