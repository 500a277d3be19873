import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { configSchemaFile } from '../../src/config/schema-validator.js';

const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
addFormats.default(ajv);
for (const name of [
  'ratings.schema.json',
  'judges-report.schema.json',
  'view-sections-api.schema.json',
])
  ajv.addSchema(JSON.parse(readFileSync(configSchemaFile(name), 'utf8')) as object);

/** The schema errors of `value` against one endpoint's `$defs` entry of config/view-sections-api.schema.json; none when it conforms. */
export function viewSectionErrors(definition: string, value: unknown): string[] {
  const validate = ajv.getSchema(
    `https://calltape.dev/schemas/view-sections-api.schema.json#/$defs/${definition}`,
  );
  if (!validate) throw new Error(`no $defs/${definition} in view-sections-api.schema.json`);
  return validate(value)
    ? []
    : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`);
}
