import type { JsonSchema, ToolDefinition } from '../trace/trace.js';

/** Parameter schemas by tool name, from the tools a captured request offered (the scoring `options.schemas`). */
export function schemasFromTools(tools: readonly ToolDefinition[]): { [tool: string]: JsonSchema } {
  const schemas: { [tool: string]: JsonSchema } = {};
  for (const tool of tools) schemas[tool.name] = tool.parameters;
  return schemas;
}
