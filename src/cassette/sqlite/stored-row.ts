import type { AssistantOutput, Interaction } from '../../trace/trace.js';
import type { RecordedExchange } from '../recorded-exchange.js';

/*
 * The rows an append writes, as values in column order for positional binding: better-sqlite3
 * binds a named parameter with an own-property check and a lookup on the object, per parameter,
 * per row (36 for an interaction), and positional values cost a few µs a row less. The column
 * lists and the value lists below must stay in the same order; the golden test of the stored
 * rows (test/stored-rows-golden.test.ts) checks every column.
 */

/** A value SQLite stores: text, number, blob or NULL. */
export type StoredValue = string | number | Uint8Array | null;

/** The `interactions` columns an append writes, in the order `interactionValues` gives their values. */
export const interactionColumns = [
  'id',
  'session_id',
  'provider',
  'method',
  'path',
  'model',
  'response_model',
  'stream',
  'status',
  'http_status',
  'error',
  'finish_reason',
  'finish_reason_raw',
  'response_text',
  'refusal',
  'input_tokens',
  'output_tokens',
  'total_tokens',
  'started_at',
  'first_byte_ms',
  'total_ms',
  'ending',
  'request_headers',
  'request_body',
  'response_headers',
  'response_body',
  'response_chunks',
  'request_key',
  'key_profile',
  'canonical_request',
  'key_ordinal',
  'ordinal_scope',
  'hidden',
  'mocked_calls',
  'agent_request_body',
  'agent_response_body',
] as const;

/** The `tool_calls` columns an append writes, in the order `toolCallValues` gives their values. */
export const toolCallColumns = [
  'interaction_id',
  'choice',
  'position',
  'session_id',
  'call_id',
  'call_index',
  'name',
  'arguments_raw',
  'arguments_json',
  'parse_error',
  'complete',
] as const;

/** `?, ?, …`, one per column. */
export function placeholders(columns: readonly string[]): string {
  return columns.map(() => '?').join(', ');
}

function mockedCallsJson(mocked: NonNullable<Interaction['mocked']>): string {
  return JSON.stringify(
    mocked.map((call) => ({
      call_id: call.callId,
      name: call.name,
      mock_set: call.set,
      result: call.content,
      is_error: call.isError,
      ...(call.agentResult !== undefined ? { agent_result: call.agentResult } : {}),
      ...(call.state !== undefined ? { state: call.state } : {}),
    })),
  );
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** An interaction's values, in `interactionColumns` order. */
export function interactionValues(exchange: RecordedExchange): StoredValue[] {
  const { interaction: trace, request, response } = exchange;
  const output = trace.response?.output;
  return [
    trace.id,
    trace.sessionId,
    trace.provider,
    trace.method,
    trace.path,
    trace.request.model ?? null,
    trace.response?.model ?? null,
    trace.request.stream ? 1 : 0,
    trace.status,
    trace.httpStatus,
    trace.error ?? null,
    output?.finishReason.unified ?? null,
    output?.finishReason.raw ?? null,
    output?.text ?? null,
    output?.refusal ?? null,
    trace.response?.usage?.inputTokens ?? null,
    trace.response?.usage?.outputTokens ?? null,
    trace.response?.usage?.totalTokens ?? null,
    Math.round(trace.timing.startedAt),
    trace.timing.firstByteMs ?? null,
    trace.timing.totalMs,
    response?.ending ?? null,
    JSON.stringify(request.headers),
    request.body,
    response ? JSON.stringify(response.headers) : null,
    response?.body ?? null,
    response
      ? JSON.stringify(response.chunks.map((chunk) => [chunk.end, round(chunk.atMs)]))
      : null,
    exchange.match?.key ?? null,
    exchange.match?.profile ?? null,
    exchange.match?.canonical ?? null,
    exchange.match?.ordinal ?? null,
    exchange.match?.scope ?? null,
    trace.hidden ? 1 : 0,
    trace.mocked ? mockedCallsJson(trace.mocked) : null,
    exchange.agentView?.request ?? null,
    exchange.agentView?.response ?? null,
  ];
}

/** The values of each tool call the interaction's answer made, in `toolCallColumns` order. */
export function toolCallValues(trace: Interaction): StoredValue[][] {
  const outputs: readonly AssistantOutput[] = trace.response
    ? [trace.response.output, ...trace.response.alternatives]
    : [];
  return outputs.flatMap((choiceOutput, choice) =>
    choiceOutput.toolCalls.map((call, position) => [
      trace.id,
      choice,
      position,
      trace.sessionId,
      call.id ?? null,
      call.index,
      call.name,
      call.argumentsRaw,
      call.arguments.ok ? JSON.stringify(call.arguments.value) : null,
      call.arguments.ok ? null : call.arguments.error,
      call.complete ? 1 : 0,
    ]),
  );
}
