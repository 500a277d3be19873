import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { configSchemaFile } from '../../src/config/schema-validator.js';

const schema = JSON.parse(readFileSync(configSchemaFile('view-api.schema.json'), 'utf8')) as {
  $id: string;
};
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
addFormats.default(ajv);
ajv.addSchema(schema);
ajv.addSchema(
  JSON.parse(readFileSync(configSchemaFile('test-report.schema.json'), 'utf8')) as object,
);

/** The schema errors of an API answer against one `$defs` entry of config/view-api.schema.json, as text (empty when it conforms). */
export function viewApiErrors(definition: string, body: unknown): string[] {
  const validate = ajv.getSchema(`${schema.$id}#/$defs/${definition}`);
  if (validate === undefined) throw new Error(`view-api.schema.json has no $defs/${definition}`);
  return validate(body)
    ? []
    : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`);
}
