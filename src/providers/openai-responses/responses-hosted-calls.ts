import type { HostedResult, HostedToolCall, JsonValue } from '../../trace/trace.js';
import { asArray, asObject, asString, parseJson, type JsonObject } from '../json-access.js';

/**
 * The output items of tools OpenAI runs itself, by item type, with the tool name a trajectory
 * calls them by (the `tools` entry that enables each: `{ "type": "web_search" }`…). An MCP call
 * is named by its own tool name, its server by `server_label`.
 * Shapes: https://platform.openai.com/docs/api-reference/responses/object (output items).
 */
const builtinNames: ReadonlyMap<string, string> = new Map([
  ['web_search_call', 'web_search'],
  ['file_search_call', 'file_search'],
  ['code_interpreter_call', 'code_interpreter'],
]);

/** Whether an output item is a hosted tool call. */
export function isHostedItem(type: string | undefined): boolean {
  return type === 'mcp_call' || (type !== undefined && builtinNames.has(type));
}

/**
 * A hosted output item (`isHostedItem`) as the trace's call. The arguments are what the tool was asked: an MCP
 * call's argument string as sent, the search `action`, the file search `queries`, the code run.
 * Statuses `in_progress`, `searching`, `interpreting`, `calling` mean the item never finished
 * (a cut stream), so the call is incomplete and has no result.
 */
export function hostedItemCall(item: JsonObject, index: number): HostedToolCall {
  const kind = asString(item['type']) ?? '';
  const status = asString(item['status']);
  const finished = status === undefined || status === 'completed' || status === 'failed';
  const argumentsRaw =
    kind === 'mcp_call' ? (asString(item['arguments']) ?? '') : JSON.stringify(argumentsOf(item));
  return {
    id: asString(item['id']),
    index,
    name: kind === 'mcp_call' ? (asString(item['name']) ?? '') : (builtinNames.get(kind) ?? kind),
    argumentsRaw,
    arguments: parseJson(argumentsRaw),
    complete: finished,
    kind,
    server: kind === 'mcp_call' ? asString(item['server_label']) : undefined,
    result: finished ? resultOf(item, status) : undefined,
  };
}

function argumentsOf(item: JsonObject): JsonValue {
  switch (item['type']) {
    case 'web_search_call':
      return item['action'] ?? {};
    case 'file_search_call':
      return { queries: item['queries'] ?? [] };
    default:
      return { code: item['code'] ?? '' };
  }
}

function resultOf(item: JsonObject, status: string | undefined): HostedResult {
  const failed = status === 'failed';
  switch (item['type']) {
    case 'mcp_call': {
      const error = item['error'];
      const errorText = typeof error === 'string' ? error : error ? JSON.stringify(error) : '';
      return {
        text: asString(item['output']) ?? errorText,
        isError: failed || (error !== null && error !== undefined),
      };
    }
    case 'web_search_call': {
      const sources = asArray(asObject(item['action'])?.['sources']);
      return { text: joined(sources, (source) => asString(source['url'])), isError: failed };
    }
    case 'file_search_call':
      return {
        text: joined(asArray(item['results']), (hit) => asString(hit['text'])),
        isError: failed,
      };
    default:
      return {
        text: joined(
          asArray(item['outputs']),
          (output) => asString(output['logs']) ?? asString(output['url']),
        ),
        isError: failed,
      };
  }
}

function joined(
  values: readonly JsonValue[],
  text: (value: JsonObject) => string | undefined,
): string {
  return values
    .map((value) => text(asObject(value) ?? {}))
    .filter((value): value is string => value !== undefined)
    .join('\n');
}
