import { CalltapeError } from '../errors.js';
import type { JsonSchema, JsonValue, ToolDefinition } from '../trace/trace.js';
import { setOwn } from './own.js';

/** Any shape a tool definition arrives in: the trace's own, or a wire's. */
export type AnyToolDefinition =
  ToolDefinition | { readonly [field: string]: JsonValue | undefined };

type Fields = { readonly [field: string]: unknown };

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parameter schemas by tool name (the scoring `options.schemas`) from the tools a request offered,
 * in any provider's shape: the trace's `{name, parameters}`, Chat Completions
 * `{type: "function", function: {name, parameters}}`, Responses `{type: "function", name,
 * parameters}` and Anthropic `{name, input_schema}`. A tool without parameters takes `{}`.
 * Provider built-in tools (`{type: "web_search_preview"}`, Anthropic server tools) have no
 * parameter schema to score against and are left out; anything else unreadable is an error
 * naming its position, never a silent `undefined` entry.
 */
export function schemasFromTools(tools: readonly AnyToolDefinition[]): {
  [tool: string]: JsonSchema;
} {
  if (!Array.isArray(tools))
    throw new CalltapeError(
      'CONFIG_INVALID',
      `schemasFromTools: expected a list of tool definitions (got ${JSON.stringify(tools)?.slice(0, 80)})`,
    );
  const schemas: { [tool: string]: JsonSchema } = {};
  tools.forEach((tool: unknown, index) => {
    const read = readTool(tool);
    if (read === undefined)
      throw new CalltapeError(
        'CONFIG_INVALID',
        `schemasFromTools: tools[${index}]: not a tool definition in any known shape (${JSON.stringify(tool)?.slice(0, 120)})`,
        'Give {name, parameters}, {type: "function", function: {name, parameters}}, {type: "function", name, parameters} or {name, input_schema}.',
      );
    if (read === 'built-in') return;
    if (read.schema !== undefined && !isFields(read.schema))
      throw new CalltapeError(
        'CONFIG_INVALID',
        `schemasFromTools: tools[${index}] (${read.name}): the parameter schema is not an object`,
      );
    setOwn(schemas, read.name, (read.schema ?? {}) as JsonSchema);
  });
  return schemas;
}

function readTool(
  tool: unknown,
): { readonly name: string; readonly schema: unknown } | 'built-in' | undefined {
  if (!isFields(tool)) return undefined;
  const nested = tool['function'];
  if (isFields(nested) && typeof nested['name'] === 'string')
    return { name: nested['name'], schema: nested['parameters'] };
  if (typeof tool['name'] === 'string' && tool['name'] !== '') {
    if (Object.hasOwn(tool, 'input_schema'))
      return { name: tool['name'], schema: tool['input_schema'] };
    if (
      Object.hasOwn(tool, 'parameters') ||
      tool['type'] === 'function' ||
      tool['type'] === undefined
    )
      return { name: tool['name'], schema: tool['parameters'] };
  }
  // Built-in tools: a type other than function (web_search_preview, code_interpreter, Anthropic's bash_20250124…) and no schema.
  if (
    typeof tool['type'] === 'string' &&
    tool['type'] !== 'function' &&
    !Object.hasOwn(tool, 'parameters') &&
    !Object.hasOwn(tool, 'input_schema')
  )
    return 'built-in';
  return undefined;
}
