import type { ToolCall } from '../../trace/trace.js';
import { asObject, asString, parseJson, type JsonObject } from '../json-access.js';
import { geminiCallIds } from './gemini-call-id.js';

/** The visible text of a turn's parts (thoughts left out). */
export function geminiText(parts: readonly JsonObject[]): string {
  return parts
    .filter((part) => part['thought'] !== true)
    .map((part) => asString(part['text']) ?? '')
    .join('');
}

/**
 * A model turn's function calls, in order, each with its position among the parts. Read the same
 * way from an answer and from the agent's echo of it in a later request, so both give a call the
 * same id.
 */
export function geminiCalls(
  parts: readonly JsonObject[],
): { readonly call: ToolCall; readonly position: number }[] {
  const calls = parts.flatMap((part, position) => {
    const call = asObject(part['functionCall']);
    return call ? [{ call, position }] : [];
  });
  const ids = geminiCallIds(
    calls.map(({ call }) => ({
      id: asString(call['id']),
      name: asString(call['name']) ?? '',
      args: call['args'] ?? {},
    })),
  );
  return calls.map(({ call, position }, index) => {
    const argumentsRaw = JSON.stringify(call['args'] ?? {});
    return {
      call: {
        id: ids[index],
        index,
        name: asString(call['name']) ?? '',
        argumentsRaw,
        arguments: parseJson(argumentsRaw),
        complete: true,
      },
      position,
    };
  });
}
