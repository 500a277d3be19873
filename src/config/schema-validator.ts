import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { packageRoot } from '../package-root.js';

/** The path of a JSON Schema shipped in config/. */
export function configSchemaFile(name: string): string {
  return join(packageRoot, 'config', name);
}

/**
 * A validator for one of the JSON Schemas in config/ (with the schemas it refers to), compiled on
 * first use and kept: it answers the errors of a value, none when it is valid. Strict mode, all
 * errors, the data beside each error (for messages that show what was given).
 */
export function schemaValidator(name: string, references: readonly string[] = []): (value: unknown) => readonly ErrorObject[] {
  let validate: ReturnType<Ajv2020['compile']> | undefined;
  return (value) => {
    if (!validate) {
      // strictRequired is off: top-level anyOf lists name properties defined beside them, which is valid JSON Schema.
      const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, verbose: true });
      addFormats.default(ajv);
      for (const reference of references) ajv.addSchema(JSON.parse(readFileSync(configSchemaFile(reference), 'utf8')) as object);
      validate = ajv.compile(JSON.parse(readFileSync(configSchemaFile(name), 'utf8')) as object);
    }
    return validate(value) ? [] : (validate.errors ?? []);
  };
}
