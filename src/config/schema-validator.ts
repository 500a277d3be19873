import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Ajv2020, ErrorObject } from 'ajv/dist/2020.js';
import type addFormatsModule from 'ajv-formats';
import type * as AjvModule from 'ajv/dist/2020.js';
import { packageRoot } from '../package-root.js';

// ajv's compiler (~1.3 MB of heap with ajv-formats) is loaded at the first compile, not with this
// module: a proxy imports it for its error texts and for mocks and policies files it may not have.
const requireLazily = createRequire(import.meta.url);

/** The path of a JSON Schema shipped in config/. */
export function configSchemaFile(name: string): string {
  return join(packageRoot, 'config', name);
}

/**
 * A validator for one of the JSON Schemas in config/ (with the schemas it refers to), compiled on
 * first use and kept: it answers the errors of a value, none when it is valid. Strict mode, all
 * errors, the data beside each error (for messages that show what was given).
 */
export function schemaValidator(
  name: string,
  references: readonly string[] = [],
): (value: unknown) => readonly ErrorObject[] {
  let validate: ReturnType<Ajv2020['compile']> | undefined;
  return (value) => {
    if (!validate) {
      // strictRequired is off: top-level anyOf lists name properties defined beside them, which is valid JSON Schema.
      const { Ajv2020: Compiler } = requireLazily('ajv/dist/2020.js') as typeof AjvModule;
      const addFormats = requireLazily('ajv-formats') as typeof addFormatsModule;
      const ajv = new Compiler({
        allErrors: true,
        strict: true,
        strictRequired: false,
        verbose: true,
      });
      addFormats.default(ajv);
      for (const reference of references)
        ajv.addSchema(JSON.parse(readFileSync(configSchemaFile(reference), 'utf8')) as object);
      validate = ajv.compile(JSON.parse(readFileSync(configSchemaFile(name), 'utf8')) as object);
    }
    return validate(value) ? [] : (validate.errors ?? []);
  };
}

/**
 * One schema error in words, `<entry>: <field>: <what>`: the entry is an item of the file's
 * top-level list `listName` (`mocks[2] (get_weather)`), named by `nameOf`; the field is a dotted
 * path (`arguments.amount.max`, `items[0]`). `messages` replaces the text of given keywords.
 * `quote`: false for a value read from a file outside the project, which is never quoted.
 */
export function schemaErrorText(
  error: ErrorObject,
  listName: string,
  nameOf: (index: number) => unknown,
  messages: { readonly [keyword: string]: string } = {},
  quote = true,
): string {
  const parts = error.instancePath.split('/').slice(1);
  const index = parts[0] === listName && parts[1] !== undefined ? Number(parts[1]) : undefined;
  const name = index !== undefined ? nameOf(index) : undefined;
  const entry =
    index !== undefined
      ? `${listName}[${index}]${typeof name === 'string' ? ` (${name})` : ''}`
      : '';
  const rest = (index !== undefined ? parts.slice(2) : parts).reduce(
    (field, part) =>
      /^\d+$/.test(part) ? `${field}[${part}]` : field === '' ? part : `${field}.${part}`,
    '',
  );
  const params = error.params as Record<string, unknown>;
  const unknownField = error.keyword === 'additionalProperties';
  const field = unknownField
    ? [rest, String(params['additionalProperty'])].filter(Boolean).join('.')
    : rest;
  const what =
    messages[error.keyword] ??
    (unknownField
      ? 'unknown field'
      : error.keyword === 'enum'
        ? `must be one of ${JSON.stringify(params['allowedValues'])}`
        : (error.message ?? 'is invalid'));
  return `${[entry, field].filter(Boolean).join(': ') || '(file)'}: ${what}${unknownField || error.keyword === 'required' || messages[error.keyword] !== undefined ? '' : givenValue(error.data, quote)}`;
}

/**
 * ` (got <value>)` for a schema error's message, so the user sees what they wrote beside what was
 * expected; long values are cut, since a whole object would drown the message. Nothing when not
 * to `quote` (a value read from a file outside the project, which may be anything: `~/.npmrc`).
 */
export function givenValue(data: unknown, quote = true): string {
  if (data === undefined || !quote) return '';
  const text = JSON.stringify(data);
  return ` (got ${text.length > 80 ? `${text.slice(0, 79)}…` : text})`;
}
