import { stableStringify } from '../stable-stringify.js';
import type { Interaction, JsonValue } from '../trace/trace.js';
import { asObject } from './json-rpc.js';

/** A tool call the model made, as the LLM side stored it. */
export interface ModelToolCall {
  readonly sessionId: string;
  readonly startedAt: number;
  readonly callId: string | null;
  readonly name: string;
  readonly argumentsJson: string | null;
}

/** The model's tool calls in some recorded rounds, as `joinMcpCalls` matches them. */
export function modelToolCalls(interactions: readonly Interaction[]): ModelToolCall[] {
  return interactions.flatMap((interaction) =>
    (interaction.response?.output.toolCalls ?? []).map((call) => ({
      sessionId: interaction.sessionId,
      startedAt: interaction.timing.startedAt,
      callId: call.id ?? null,
      name: call.name,
      // Malformed arguments match no MCP call (the server could not have been sent them).
      argumentsJson: call.arguments.ok ? JSON.stringify(call.arguments.value) : null,
    })),
  );
}

/** A tools/call an MCP server answered. */
export interface ServerToolCall {
  readonly id: string;
  readonly sessionId: string;
  readonly sessionGiven: boolean;
  readonly startedAt: number;
  readonly subject: string | undefined;
  readonly params: JsonValue | undefined;
}

/** Where an MCP call belongs: the LLM session, and the model's tool call it carried out (when one matched). */
export interface JoinedCall {
  readonly sessionId: string;
  readonly callId: string | null;
}

/**
 * Puts each MCP tool call into the LLM session it belongs to. A session given on both sides
 * (`x-calltape-session` / `--session`) decides; otherwise the call joins the session of the
 * model's earliest unclaimed tool call with the same name and arguments made before it, so the
 * trajectory holds "the model asked for X" beside "server S answered Y". Agents often prefix
 * MCP tool names (`notes__add`, `notes.add`): a model tool name ending in a separator and the
 * MCP name matches too. An MCP call nothing matches keeps the relay's own session.
 */
export function joinMcpCalls(
  modelCalls: readonly ModelToolCall[],
  serverCalls: readonly ServerToolCall[],
): Map<string, JoinedCall> {
  const claimed = new Set<number>();
  const byTime = [...modelCalls.keys()].sort(
    (a, b) => (modelCalls[a]?.startedAt ?? 0) - (modelCalls[b]?.startedAt ?? 0) || a - b,
  );
  const joined = new Map<string, JoinedCall>();
  for (const call of [...serverCalls].sort((a, b) => a.startedAt - b.startedAt)) {
    const tool = call.subject;
    const args = asObject(call.params)?.['arguments'] ?? {};
    const match = byTime.find((index) => {
      const model = modelCalls[index];
      if (!model || claimed.has(index) || model.startedAt > call.startedAt || tool === undefined)
        return false;
      if (call.sessionGiven && model.sessionId !== call.sessionId) return false;
      return carriesOut(model.name, model.argumentsJson, tool, args);
    });
    if (match === undefined) {
      joined.set(call.id, { sessionId: call.sessionId, callId: null });
      continue;
    }
    claimed.add(match);
    const model = modelCalls[match] as ModelToolCall;
    joined.set(call.id, { sessionId: model.sessionId, callId: model.callId });
  }
  return joined;
}

/** Whether an MCP tools/call (tool, arguments) carried out the model's call (name, argument text): same tool, same arguments. */
export function carriesOut(
  modelName: string,
  modelArguments: string | null,
  tool: string,
  args: JsonValue,
): boolean {
  return (
    sameTool(modelName, tool) &&
    modelArguments !== null &&
    canonicalJson(modelArguments) === canonicalArguments(args)
  );
}

function canonicalArguments(value: JsonValue): string {
  return stableStringify(value);
}

/** Arguments the model produced, canonical; malformed JSON (kept as the model wrote it) matches nothing. */
function canonicalJson(text: string): string | undefined {
  try {
    return canonicalArguments(JSON.parse(text) as JsonValue);
  } catch {
    return undefined;
  }
}

function sameTool(modelName: string, mcpName: string): boolean {
  if (modelName === mcpName) return true;
  if (!modelName.endsWith(mcpName)) return false;
  const separator = modelName.charAt(modelName.length - mcpName.length - 1);
  return (
    separator === '_' ||
    separator === '.' ||
    separator === '-' ||
    separator === ':' ||
    separator === '/'
  );
}
