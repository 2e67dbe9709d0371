import { errors, yup } from '@strapi/utils';

export interface FieldError {
  path: string[];
  message: string;
  name: 'ValidationError';
}

/**
 * Validates input against a schema and rejects keys the schema does not list. Every offending
 * field is reported, each under its own path, in Strapi's ValidationError body.
 */
export async function validateInput<T>(schema: yup.AnyObjectSchema, input: unknown, what: string): Promise<T> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new errors.ValidationError(`${what} must be a JSON object`, {
      errors: [{ path: [], message: `${what} must be a JSON object`, name: 'ValidationError' }],
    });
  }
  const known = new Set(Object.keys(schema.fields));
  const fieldErrors: FieldError[] = Object.keys(input)
    .filter((key) => !known.has(key))
    .map((key) => ({ path: [key], message: `${key} is not an allowed field`, name: 'ValidationError' }));

  let value: T | undefined;
  try {
    value = (await schema.validate(input, { abortEarly: false, strict: true, stripUnknown: false })) as T;
  } catch (error) {
    if (!(error instanceof yup.ValidationError)) throw error;
    const inner = error.inner.length > 0 ? error.inner : [error];
    const reported = new Set<string>();
    for (const fieldError of inner) {
      // One message per field: the first rule it breaks.
      const path = fieldError.path ?? '';
      if (reported.has(path)) continue;
      reported.add(path);
      fieldErrors.push({ path: fieldError.path ? [fieldError.path] : [], message: fieldError.message, name: 'ValidationError' });
    }
  }

  if (fieldErrors.length > 0 || value === undefined) {
    const message = fieldErrors.length === 1 ? fieldErrors[0].message : `${fieldErrors.length} errors occurred`;
    throw new errors.ValidationError(message, { errors: fieldErrors });
  }
  return value;
}
