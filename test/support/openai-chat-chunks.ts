import type { JsonValue } from '../../src/trace/trace.js';
import { fragments, type Random } from './random.js';

/** A tool call the scripted model makes. */
export interface ScriptedToolCall {
  readonly id?: string;
  readonly name: string;
  /** The argument string exactly as the model emits it (need not be valid JSON). */
  readonly arguments: string;
}

/** One scripted assistant turn, turned into Chat Completions wire objects below. */
export interface ScriptedTurn {
  readonly id?: string;
  readonly model?: string;
  readonly text?: string;
  readonly refusal?: string;
  readonly toolCalls?: readonly ScriptedToolCall[];
  /** Defaults to `tool_calls` when there are calls, else `stop`; `null` sends none (truncated turn). */
  readonly finishReason?: string | null;
  readonly usage?: { readonly prompt_tokens: number; readonly completion_tokens: number };
  /** Interleave the argument deltas of parallel calls (round robin) instead of one call after another. */
  readonly interleave?: boolean;
  /** Omit `index` on tool-call deltas (some OpenAI-compatible servers do); `id` is then sent on every delta. */
  readonly omitIndex?: boolean;
}

const created = 1_764_460_800;

/** The whole `chat.completion` object for a turn (non-streaming). */
export function chatCompletion(turn: ScriptedTurn): JsonValue {
  const calls = (turn.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${index}`,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  return {
    id: turn.id ?? 'chatcmpl-scripted',
    object: 'chat.completion',
    created,
    model: turn.model ?? 'gpt-4o-mini-2024-07-18',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: turn.text ?? null,
          refusal: turn.refusal ?? null,
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
          annotations: [],
        },
        logprobs: null,
        finish_reason: finishReason(turn),
      },
    ],
    usage: usageObject(turn),
    service_tier: 'default',
    system_fingerprint: 'fp_scripted',
  };
}

/**
 * The `chat.completion.chunk` objects OpenAI streams for a turn, then `[DONE]`. Text and
 * argument strings are cut into fragments of random length (whole code points, as the API
 * sends them); the byte stream itself is split separately by the scripted upstream.
 */
export function chatCompletionChunks(
  turn: ScriptedTurn,
  random: Random,
  options: { includeUsage?: boolean } = {},
): (JsonValue | '[DONE]')[] {
  const base = {
    id: turn.id ?? 'chatcmpl-scripted',
    object: 'chat.completion.chunk',
    created,
    model: turn.model ?? 'gpt-4o-mini-2024-07-18',
    service_tier: 'default',
    system_fingerprint: 'fp_scripted',
  };
  const usageField = options.includeUsage ? { usage: null } : {};
  const chunk = (delta: JsonValue, finish: string | null = null): JsonValue => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...usageField,
  });
  const chunks: (JsonValue | '[DONE]')[] = [
    chunk({
      role: 'assistant',
      content: turn.toolCalls?.length && !turn.text ? null : '',
      refusal: null,
    }),
  ];
  for (const piece of fragments(turn.text ?? '', random)) chunks.push(chunk({ content: piece }));
  for (const piece of fragments(turn.refusal ?? '', random)) chunks.push(chunk({ refusal: piece }));

  const calls = turn.toolCalls ?? [];
  const callDelta = (index: number, fields: Record<string, JsonValue>): JsonValue => {
    const call = calls[index];
    const addressing: Record<string, JsonValue> = turn.omitIndex
      ? { id: call?.id ?? `call_${index}` }
      : { index };
    return chunk({ tool_calls: [{ ...addressing, ...fields }] });
  };
  const queues = calls.map((call, index) => [
    callDelta(index, {
      id: call.id ?? `call_${index}`,
      type: 'function',
      function: { name: call.name, arguments: '' },
    }),
    ...fragments(call.arguments, random).map((piece) =>
      callDelta(index, { function: { arguments: piece } }),
    ),
  ]);
  if (turn.interleave) {
    while (queues.some((queue) => queue.length > 0))
      for (const queue of queues) {
        const next = queue.shift();
        if (next !== undefined) chunks.push(next);
      }
  } else {
    for (const queue of queues) chunks.push(...queue);
  }
  const finish = finishReason(turn);
  if (finish !== null) chunks.push(chunk({}, finish));
  if (finish !== null && options.includeUsage)
    chunks.push({ ...base, choices: [], usage: usageObject(turn) });
  if (finish !== null) chunks.push('[DONE]');
  return chunks;
}

function finishReason(turn: ScriptedTurn): string | null {
  if (turn.finishReason !== undefined) return turn.finishReason;
  return turn.toolCalls && turn.toolCalls.length > 0 ? 'tool_calls' : 'stop';
}

function usageObject(turn: ScriptedTurn): JsonValue {
  const usage = turn.usage ?? { prompt_tokens: 42, completion_tokens: 17 };
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.prompt_tokens + usage.completion_tokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** Encodes chunks as the SSE bytes OpenAI sends: `data: <json>\n\n` each. */
export function encodeSse(chunks: readonly (JsonValue | '[DONE]')[]): string {
  return chunks
    .map((chunk) => `data: ${chunk === '[DONE]' ? chunk : JSON.stringify(chunk)}\n\n`)
    .join('');
}
