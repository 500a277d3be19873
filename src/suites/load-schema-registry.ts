import { resolve } from 'node:path';
import { CalltapeError } from '../errors.js';
import { openAiChatAdapter } from '../providers/openai-chat/openai-chat-adapter.js';
import { schemasFromTools } from '../scoring/schemas-from-tools.js';
import type { JsonSchema, JsonValue } from '../trace/trace.js';
import { readJsonFile } from '../config/read-json-file.js';

/**
 * Reads a schema registry file: either `{ "<tool>": <parameters JSON Schema>, … }` or an OpenAI
 * `tools` array (as agents declare them), and returns parameter schemas by tool name.
 */
export function loadSchemaRegistry(file: string, cwd: string): { [tool: string]: JsonSchema } {
  const path = resolve(cwd, file);
  return schemaRegistry(readJsonFile(path, 'the schema registry'), path);
}

/** Parameter schemas by tool name from a registry value (`{tool: schema}` or an OpenAI `tools` array); `where` names it in errors. */
export function schemaRegistry(value: JsonValue, where: string): { [tool: string]: JsonSchema } {
  if (Array.isArray(value)) {
    const tools = openAiChatAdapter.parseRequest({ tools: value }).tools;
    if (tools.length === 0)
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${where}: no {"type":"function","function":{…}} tool definitions in the array`,
      );
    return schemasFromTools(tools);
  }
  if (typeof value !== 'object' || value === null)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${where}: expected an object of schemas by tool name, or a tools array`,
    );
  const schemas: { [tool: string]: JsonSchema } = {};
  for (const [tool, schema] of Object.entries(value)) {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${where}: /${tool}: expected a JSON Schema object`,
      );
    schemas[tool] = schema;
  }
  return schemas;
}
