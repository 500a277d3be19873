import type { ErrorObject } from 'ajv/dist/2020.js';
import { schemaErrorText } from '../config/schema-validator.js';

/** Messages naming the mock (by index and tool) and the field; alternatives (`oneOf`) report the deepest branch only. */
export function describeMockErrors(
  path: string,
  value: unknown,
  errors: readonly ErrorObject[],
  quote: boolean,
): string[] {
  const depth = (error: ErrorObject): number =>
    error.instancePath.split('/').length + (error.keyword === 'additionalProperties' ? 1 : 0);
  const deepest = Math.max(...errors.map(depth));
  const mocks = (value as { mocks?: { tool?: unknown }[] } | null)?.mocks;
  // A failed oneOf also reports each branch's missing property: the oneOf message says it better.
  const oneOfAt = new Set(
    errors.filter((error) => error.keyword === 'oneOf').map((error) => error.instancePath),
  );
  return [
    ...new Set(
      errors
        .filter(
          (error) =>
            depth(error) === deepest &&
            !(error.keyword === 'required' && oneOfAt.has(error.instancePath)),
        )
        .map(
          (error) =>
            `${path}: ${schemaErrorText(error, 'mocks', (index) => mocks?.[index]?.tool, { oneOf: 'give exactly one of result, error, when, sequence or module' }, quote)}`,
        ),
    ),
  ];
}
