import type { JsonValue } from '../../src/trace/trace.js';
import { fragments, type Random } from './random.js';

/** A tool call the scripted Claude makes: its input as the JSON text it streams. */
export interface ScriptedToolUse {
  readonly id?: string;
  readonly name: string;
  readonly input: string;
}

export interface ScriptedMessage {
  readonly id?: string;
  readonly model?: string;
  readonly text?: string;
  readonly toolUses?: readonly ScriptedToolUse[];
  /** Default `tool_use` when there are tool uses, else `end_turn`; `null` ends the stream without message_stop. */
  readonly stopReason?: string | null;
  readonly usage?: { readonly input_tokens: number; readonly output_tokens: number };
}

/** The whole Messages response (non-streaming). */
export function anthropicMessage(turn: ScriptedMessage): JsonValue {
  return {
    id: turn.id ?? 'msg_scripted',
    type: 'message',
    role: 'assistant',
    model: turn.model ?? 'claude-sonnet-4-5',
    content: [
      ...(turn.text ? [{ type: 'text', text: turn.text }] : []),
      ...(turn.toolUses ?? []).map((use, index) => ({
        type: 'tool_use',
        id: use.id ?? `toolu_${index}`,
        name: use.name,
        input: JSON.parse(use.input) as JsonValue,
      })),
    ],
    stop_reason:
      turn.stopReason === undefined
        ? (turn.toolUses?.length ?? 0) > 0
          ? 'tool_use'
          : 'end_turn'
        : turn.stopReason,
    stop_sequence: null,
    usage: turn.usage ?? { input_tokens: 25, output_tokens: 12 },
  };
}

/**
 * The Messages event stream for a turn, as Anthropic sends it: `event:` lines, a `ping`, text in
 * several `text_delta`s, each tool input in `input_json_delta` pieces split at random (the first
 * one empty, as the API sends it), `message_delta` with the stop reason, `message_stop`.
 */
export function anthropicEvents(turn: ScriptedMessage, random: Random): string {
  const events: string[] = [];
  const emit = (type: string, data: Record<string, JsonValue>): void =>
    void events.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const usage = turn.usage ?? { input_tokens: 25, output_tokens: 12 };
  emit('message_start', {
    message: {
      id: turn.id ?? 'msg_scripted',
      type: 'message',
      role: 'assistant',
      model: turn.model ?? 'claude-sonnet-4-5',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
    },
  });
  emit('ping', {});
  let index = 0;
  if (turn.text) {
    emit('content_block_start', { index, content_block: { type: 'text', text: '' } });
    for (const piece of fragments(turn.text, random))
      emit('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
    emit('content_block_stop', { index });
    index++;
  }
  for (const [position, use] of (turn.toolUses ?? []).entries()) {
    emit('content_block_start', {
      index,
      content_block: {
        type: 'tool_use',
        id: use.id ?? `toolu_${position}`,
        name: use.name,
        input: {},
      },
    });
    emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } });
    for (const piece of fragments(use.input, random))
      emit('content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: piece },
      });
    if (turn.stopReason !== null) emit('content_block_stop', { index });
    index++;
  }
  if (turn.stopReason === null) return events.join('');
  emit('message_delta', {
    delta: {
      stop_reason: turn.stopReason ?? ((turn.toolUses?.length ?? 0) > 0 ? 'tool_use' : 'end_turn'),
      stop_sequence: null,
    },
    usage: { output_tokens: usage.output_tokens },
  });
  emit('message_stop', {});
  return events.join('');
}
