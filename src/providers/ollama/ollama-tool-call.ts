import fnv1a from '@sindresorhus/fnv1a';
import type { JsonValue, ToolCall } from '../../trace/trace.js';
import { asNumber, asObject, asString, parseJson, type JsonObject } from '../json-access.js';

/**
 * The id a call has in the trace. Ollama sends `id` (`call_` and 8 random characters) since
 * v0.12.10; older servers send none, and mocks, result pairing and the conversation keys need
 * one. The stand-in is derived from what the agent sends back unchanged — the call's number in its
 * turn (`function.index`, else its position) and its name and arguments — so the answer and the
 * agent's echo of it get the same id. The content hash keeps ids of different calls at the same
 * position in different turns apart.
 */
export function ollamaCallId(position: number, name: string, argumentsRaw: string): string {
  const hash = fnv1a(`${name}\u0000${argumentsRaw}`, { size: 32 });
  return `ollama_call_${position}_${hash.toString(16).padStart(8, '0')}`;
}

/** The argument text of a call: Ollama sends arguments as an object; a string is kept as sent. */
export function ollamaArgumentsRaw(fn: JsonObject | undefined): string {
  const value = fn?.['arguments'];
  if (typeof value === 'string') return value;
  return JSON.stringify(value ?? {});
}

/** The number a call's id is derived from: the `function.index` Ollama sends, else its position in the turn. */
export function ollamaCallNumber(call: JsonObject | undefined, position: number): number {
  return asNumber(asObject(call?.['function'])?.['index']) ?? position;
}

/**
 * One `tool_calls` entry as a trace call. Calls arrive whole (never as argument deltas), so
 * `complete` is whether the turn they belong to finished.
 */
export function readOllamaToolCall(
  value: JsonValue | undefined,
  position: number,
  complete: boolean,
): ToolCall {
  const call = asObject(value);
  const fn = asObject(call?.['function']);
  const name = asString(fn?.['name']) ?? '';
  const argumentsRaw = ollamaArgumentsRaw(fn);
  return {
    id:
      nonEmpty(asString(call?.['id'])) ??
      ollamaCallId(ollamaCallNumber(call, position), name, argumentsRaw),
    index: position,
    name,
    argumentsRaw,
    arguments: parseJson(argumentsRaw),
    complete,
  };
}

function nonEmpty(text: string | undefined): string | undefined {
  return text === undefined || text === '' ? undefined : text;
}
