import type {
  HostedResult,
  HostedToolCall,
  JsonValue,
  ParsedArguments,
} from '../../trace/trace.js';
import { asBoolean, asNumber, asObject, asString, type JsonObject } from '../json-access.js';

/**
 * Tools Anthropic runs itself: a `server_tool_use` (web search, web fetch, code execution…) or
 * `mcp_tool_use` (MCP connector) block, answered in the same message by a result block naming
 * its id (`web_search_tool_result`, `mcp_tool_result`, `bash_code_execution_tool_result`…).
 * Shapes: https://docs.anthropic.com/en/api/messages (content blocks).
 */
export function isHostedUse(type: string | undefined): boolean {
  return type === 'server_tool_use' || type === 'mcp_tool_use';
}

/** A result block of a hosted tool (the agent's own `tool_result` only ever comes in requests). */
export function isHostedResult(type: string | undefined): boolean {
  return type !== undefined && type.endsWith('_tool_result');
}

/** A hosted call block as read off the wire (whole or reassembled from its stream). */
export interface HostedUseBlock {
  /** The block as it started (`type`, `id`, `name`, `server_name`). */
  readonly block: JsonObject;
  readonly argumentsRaw: string;
  readonly arguments: ParsedArguments;
  readonly complete: boolean;
}

/** The hosted calls of a message, each with the result block that names it (by `tool_use_id`). */
export function hostedCalls(
  uses: readonly HostedUseBlock[],
  results: readonly JsonObject[],
): HostedToolCall[] {
  const byCall = new Map<string, JsonObject>();
  for (const result of results) {
    const id = asString(result['tool_use_id']);
    if (id !== undefined) byCall.set(id, result);
  }
  return uses.map((use, index): HostedToolCall => {
    const id = asString(use.block['id']);
    const result = id === undefined ? undefined : byCall.get(id);
    return {
      id,
      index,
      name: asString(use.block['name']) ?? '',
      argumentsRaw: use.argumentsRaw,
      arguments: use.arguments,
      complete: use.complete,
      kind: asString(use.block['type']) ?? '',
      server: asString(use.block['server_name']),
      result: result && resultOf(result),
    };
  });
}

/**
 * A result block as the trace's result. Failed: `is_error` (MCP), an `*_error` content object
 * (`web_search_tool_result_error`, `code_execution_tool_result_error`…, with its `error_code`),
 * or code that exited non-zero (`return_code`).
 */
function resultOf(block: JsonObject): HostedResult {
  const content = block['content'];
  const object = asObject(content);
  const failedContent = asString(object?.['type'])?.endsWith('_error') === true;
  const returnCode = asNumber(object?.['return_code']);
  return {
    text: textOf(content),
    isError:
      asBoolean(block['is_error']) === true ||
      failedContent ||
      (returnCode !== undefined && returnCode !== 0),
  };
}

function textOf(content: JsonValue | undefined): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((part) => {
        const object = asObject(part);
        return asString(object?.['text']) ?? asString(object?.['url']);
      })
      .filter((text): text is string => text !== undefined)
      .join('\n');
  const object = asObject(content);
  if (!object) return '';
  const errorCode = asString(object['error_code']);
  if (errorCode !== undefined)
    return [errorCode, asString(object['error_message'])].filter(Boolean).join(': ');
  // Code execution: what the code printed (possibly nothing).
  if (Object.hasOwn(object, 'stdout') || Object.hasOwn(object, 'stderr'))
    return [asString(object['stdout']), asString(object['stderr'])].filter(Boolean).join('\n');
  const nested = object['content'];
  if (Array.isArray(nested) && nested.length > 0) return textOf(nested);
  return asString(object['url']) ?? JSON.stringify(object);
}
