import type { JsonValue } from '../../src/trace/trace.js';
import { fragments, type Random } from './random.js';

/** A function call the scripted Gemini makes: its arguments as JSON text; `id` only where the model sends one. */
export interface ScriptedFunctionCall {
  readonly id?: string;
  readonly name: string;
  readonly args: string;
  /** Sent on the call's part, as Gemini 3 signs the first call of a turn. */
  readonly thoughtSignature?: string;
}

export interface ScriptedGeminiTurn {
  readonly text?: string;
  readonly calls?: readonly ScriptedFunctionCall[];
  readonly usage?: {
    readonly prompt: number;
    readonly candidates: number;
    readonly thoughts?: number;
  };
  /** Default `STOP`; `null` cuts the stream before its last chunk (and an array before its `]`). */
  readonly finishReason?: string | null;
  readonly modelVersion?: string;
}

function callPart(call: ScriptedFunctionCall): JsonValue {
  return {
    functionCall: {
      ...(call.id !== undefined ? { id: call.id } : {}),
      name: call.name,
      args: JSON.parse(call.args) as JsonValue,
    },
    ...(call.thoughtSignature !== undefined ? { thoughtSignature: call.thoughtSignature } : {}),
  };
}

function usageOf(turn: ScriptedGeminiTurn): JsonValue {
  const usage = turn.usage ?? { prompt: 25, candidates: 12 };
  return {
    promptTokenCount: usage.prompt,
    candidatesTokenCount: usage.candidates,
    ...(usage.thoughts !== undefined ? { thoughtsTokenCount: usage.thoughts } : {}),
    totalTokenCount: usage.prompt + usage.candidates + (usage.thoughts ?? 0),
  };
}

/** The whole `generateContent` answer. */
export function geminiResponse(turn: ScriptedGeminiTurn): JsonValue {
  return {
    candidates: [
      {
        content: {
          parts: [...(turn.text ? [{ text: turn.text }] : []), ...(turn.calls ?? []).map(callPart)],
          role: 'model',
        },
        finishReason: turn.finishReason ?? 'STOP',
        index: 0,
      },
    ],
    usageMetadata: usageOf(turn),
    modelVersion: turn.modelVersion ?? 'gemini-2.5-flash',
    responseId: 'scripted-response',
  };
}

/**
 * The `streamGenerateContent` chunks of a turn, as Gemini sends them: text in several chunks of
 * one text part each, each function call whole (several in one chunk at random: parallel calls in
 * one candidate), and a last chunk with an empty text part, the finish reason and the usage.
 */
export function geminiChunks(turn: ScriptedGeminiTurn, random: Random): JsonValue[] {
  const named = {
    modelVersion: turn.modelVersion ?? 'gemini-2.5-flash',
    responseId: 'scripted-response',
  };
  const chunk = (parts: JsonValue[], last = false): JsonValue => ({
    candidates: [
      {
        content: { parts, role: 'model' },
        ...(last ? { finishReason: turn.finishReason ?? 'STOP' } : {}),
        index: 0,
      },
    ],
    ...(last ? { usageMetadata: usageOf(turn) } : {}),
    ...named,
  });
  const chunks: JsonValue[] = fragments(turn.text ?? '', random).map((piece) =>
    chunk([{ text: piece }]),
  );
  const calls = [...(turn.calls ?? [])];
  while (calls.length > 0)
    chunks.push(chunk(calls.splice(0, 1 + random.int(calls.length)).map(callPart)));
  if (turn.finishReason !== null) chunks.push(chunk([{ text: '' }], true));
  return chunks;
}

/** Chunks as the `?alt=sse` event stream. */
export function geminiSse(chunks: readonly JsonValue[]): string {
  return chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join('');
}

/** Chunks as the JSON-array stream (pretty-printed elements, as Google writes it); `closed: false` leaves off the `]`. */
export function geminiArray(chunks: readonly JsonValue[], closed = true): string {
  const body = chunks.map((chunk) => JSON.stringify(chunk, null, 2)).join('\n,\r\n');
  return `[${body}${closed ? '\n]' : ''}`;
}
