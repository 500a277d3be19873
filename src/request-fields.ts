import { CalltapeError } from './errors.js';

/** Parses a request body as a JSON object; anything else is the caller's mistake (CONFIG_INVALID). */
export function jsonObjectOf(body: string, what: string): Readonly<Record<string, unknown>> {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new CalltapeError('CONFIG_INVALID', `the ${what} is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new CalltapeError('CONFIG_INVALID', `the ${what} must be a JSON object`);
  return value as Record<string, unknown>;
}

/**
 * A text field of a parsed request body, read as an own property (a body is input: `__proto__`
 * or `constructor` are just names): undefined when absent or null, CONFIG_INVALID naming the
 * field when not text or longer than `limit`.
 */
export function textField(
  record: Readonly<Record<string, unknown>>,
  name: string,
  limit: number,
  what: string,
): string | undefined {
  const field = Object.hasOwn(record, name) ? record[name] : undefined;
  if (field === undefined || field === null) return undefined;
  if (typeof field !== 'string' || field.length > limit)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `the ${what}'s "${name}" must be text of at most ${limit} characters`,
    );
  return field;
}
