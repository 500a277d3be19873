import { resolve } from 'node:path';
import { CalltapeError } from '../errors.js';
import type { Guidelines } from '../guidelines/guidelines.js';
import { openAiChatAdapter } from '../providers/openai-chat/openai-chat-adapter.js';
import { schemaRegistry } from '../suites/load-schema-registry.js';
import { schemasFromTools } from '../scoring/schemas-from-tools.js';
import type { JsonValue, ToolDefinition } from '../trace/trace.js';
import type { ToolBrief } from './generator-requests.js';
import { readJsonFile } from '../config/read-json-file.js';

/**
 * The tools cases are generated for: every tool the guidelines name, with its definition from
 * the tools file (an OpenAI `tools` array, or `{tool: schema}`). A guideline for a tool the
 * file does not define is refused, naming both files and the tool.
 */
export function loadToolBriefs(
  toolsFile: string,
  guidelines: Guidelines,
  guidelinesFile: string,
  cwd: string,
): ToolBrief[] {
  const path = resolve(cwd, toolsFile);
  const value = readJsonFile(path, 'the tools');
  const schemas = schemaRegistry(value, path);
  const descriptions = new Map(
    Array.isArray(value)
      ? openAiChatAdapter
          .parseRequest({ tools: value })
          .tools.map((tool) => [tool.name, tool.description ?? ''] as const)
      : [],
  );
  return briefsFor(schemas, descriptions, path, guidelines, resolve(cwd, guidelinesFile));
}

/**
 * The same from the tools a captured request offered (any wire's shape, read back as the trace's
 * `ToolDefinition`s); `where` names the capture in errors.
 */
export function toolBriefsFrom(
  tools: readonly ToolDefinition[],
  where: string,
  guidelines: Guidelines,
  guidelinesFile: string,
): ToolBrief[] {
  return briefsFor(
    schemasFromTools(tools),
    new Map(tools.map((tool) => [tool.name, tool.description ?? ''] as const)),
    where,
    guidelines,
    guidelinesFile,
  );
}

function briefsFor(
  schemas: { readonly [tool: string]: JsonValue },
  descriptions: ReadonlyMap<string, string>,
  where: string,
  guidelines: Guidelines,
  guidelinesPath: string,
): ToolBrief[] {
  return [...guidelines.tools].map(([name, entry]) => {
    if (!Object.hasOwn(schemas, name))
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${guidelinesPath}: tools.${name}: no such tool in ${where} (it defines ${Object.keys(schemas).join(', ') || 'none'})`,
        'Name the tool as the agent offers it to the model.',
      );
    return {
      name,
      description: descriptions.get(name) ?? '',
      parameters: schemas[name] ?? {},
      guidelines: entry,
    };
  });
}
