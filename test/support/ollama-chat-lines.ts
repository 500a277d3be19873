import type { JsonValue } from '../../src/trace/trace.js';
import { fragments, type Random } from './random.js';

/** A call the scripted Ollama model makes: its arguments as JSON text (sent as an object). */
export interface ScriptedOllamaCall {
  /** Omitted: an Ollama older than v0.12.10, which sends no call ids. */
  readonly id?: string;
  readonly name: string;
  readonly arguments: string;
}

export interface ScriptedOllamaTurn {
  readonly model?: string;
  readonly text?: string;
  readonly thinking?: string;
  readonly calls?: readonly ScriptedOllamaCall[];
  readonly usage?: { readonly prompt_eval_count: number; readonly eval_count: number };
  /** `null`: the stream stops before the `done` object. */
  readonly doneReason?: string | null;
  /** Calls without `function.index`, as servers before it sent them (Ollama's documented examples). */
  readonly unnumbered?: boolean;
}

const createdAt = '2026-12-03T15:00:00.000000Z';

function wireCalls(turn: ScriptedOllamaTurn): JsonValue[] {
  return (turn.calls ?? []).map((call, index) => ({
    ...(call.id !== undefined ? { id: call.id } : {}),
    function: {
      ...(turn.unnumbered === true ? {} : { index }),
      name: call.name,
      arguments: JSON.parse(call.arguments) as JsonValue,
    },
  }));
}

function finalFields(turn: ScriptedOllamaTurn): { [key: string]: JsonValue } {
  const usage = turn.usage ?? { prompt_eval_count: 26, eval_count: 12 };
  return {
    done_reason: turn.doneReason ?? 'stop',
    done: true,
    total_duration: 182242375,
    load_duration: 41295167,
    prompt_eval_count: usage.prompt_eval_count,
    prompt_eval_duration: 24573166,
    eval_count: usage.eval_count,
    eval_duration: 115959084,
  };
}

/** The whole `/api/chat` answer (`"stream": false`). */
export function ollamaChatResponse(turn: ScriptedOllamaTurn): JsonValue {
  const calls = wireCalls(turn);
  return {
    model: turn.model ?? 'llama3.2',
    created_at: createdAt,
    message: {
      role: 'assistant',
      content: turn.text ?? '',
      ...(turn.thinking !== undefined ? { thinking: turn.thinking } : {}),
      ...(calls.length > 0 ? { tool_calls: calls } : {}),
    },
    ...finalFields(turn),
  };
}

/**
 * The NDJSON stream Ollama sends for a turn: thinking and text in small pieces, each call whole
 * (several in one object or one an object, at random), then the `done` object with the counts.
 */
export function ollamaChatLines(turn: ScriptedOllamaTurn, random: Random): string {
  const head = { model: turn.model ?? 'llama3.2', created_at: createdAt };
  const lines: JsonValue[] = [];
  const piece = (message: { [key: string]: JsonValue }): void =>
    void lines.push({ ...head, message: { role: 'assistant', ...message }, done: false });
  for (const thinking of fragments(turn.thinking ?? '', random)) piece({ content: '', thinking });
  for (const content of fragments(turn.text ?? '', random)) piece({ content });
  const calls = wireCalls(turn);
  for (let start = 0; start < calls.length;) {
    const count = 1 + random.int(calls.length - start);
    piece({ content: '', tool_calls: calls.slice(start, start + count) });
    start += count;
  }
  if (turn.doneReason !== null)
    lines.push({ ...head, message: { role: 'assistant', content: '' }, ...finalFields(turn) });
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('');
}
