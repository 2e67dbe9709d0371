import { type yup, z } from '@strapi/utils';

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

/**
 * A tool's input schema from the yup schema that validates the same input on the REST route: the
 * same field names, the ones it requires, the values it allows. The tool's handler still runs that
 * yup schema, which holds every rule (lengths, https, tags, dates): the JSON Schema an MCP client
 * sees describes the input, and the one validation decides, so the two cannot disagree.
 */
export function inputShapeOf(
  schema: yup.AnyObjectSchema,
  descriptions: Record<string, string>,
  options: { numbers?: readonly string[]; omit?: readonly string[] } = {},
): Record<string, z.ZodType> {
  const fields = (schema.describe() as { fields: Record<string, FieldDescription> }).fields;
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(fields)) {
    if (options.omit?.includes(name)) continue;
    const allowed = (field.oneOf ?? []).filter((value): value is string => typeof value === 'string');
    // Refused in the REST API's words: the MCP server puts the check's messages in its tool error.
    let type: z.ZodType =
      allowed.length > 0
        ? z.enum(allowed as [string, ...string[]], { error: `${name} must be ${alternatives(allowed)}` })
        : z.string({ error: `${name} must be a string` });
    // A REST query parameter is text; an agent naturally sends a page number as a number.
    if (options.numbers?.includes(name)) type = z.union([z.number().int(), z.string()], { error: `${name} must be a whole number` });
    // Every field is optional to the MCP server's own check: a missing required field is then
    // refused by the REST validation, with its message ("title is required"), not the check's.
    const required = (field.tests ?? []).some((test) => test.name === 'required');
    const help = [required ? 'Required.' : '', descriptions[name] ?? ''].filter(Boolean).join(' ');
    shape[name] = (help ? type.describe(help) : type).optional();
  }
  return shape;
}

/** The REST query of a tool's arguments: every value as the text a URL would carry. */
export function asQuery(args: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(args)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, typeof value === 'string' ? value : String(value)]),
  );
}
