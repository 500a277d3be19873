import type { JsonValue } from '../../src/trace/trace.js';
import { fragments, type Random } from './random.js';

export interface ScriptedResponsesTurn {
  readonly id?: string;
  readonly model?: string;
  readonly text?: string;
  readonly calls?: readonly {
    readonly callId: string;
    readonly name: string;
    readonly arguments: string;
  }[];
  readonly usage?: { readonly input_tokens: number; readonly output_tokens: number };
  /** `incomplete` with max_output_tokens, or a stream cut before its terminal event. */
  readonly ending?: 'completed' | 'incomplete' | 'cut';
}

/** The whole `response` object for a turn. */
export function responsesObject(turn: ScriptedResponsesTurn): JsonValue {
  const usage = turn.usage ?? { input_tokens: 30, output_tokens: 14 };
  return {
    id: turn.id ?? 'resp_scripted',
    object: 'response',
    created_at: 1_764_460_800,
    status: turn.ending === 'incomplete' ? 'incomplete' : 'completed',
    incomplete_details: turn.ending === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    error: null,
    model: turn.model ?? 'gpt-4.1-mini-2025-04-14',
    output: [
      ...(turn.text
        ? [
            {
              type: 'message',
              id: 'msg_1',
              status: 'completed',
              role: 'assistant',
              content: [{ type: 'output_text', text: turn.text, annotations: [] }],
            },
          ]
        : []),
      ...(turn.calls ?? []).map((call, index) => ({
        type: 'function_call',
        id: `fc_${index}`,
        call_id: call.callId,
        name: call.name,
        arguments: call.arguments,
        status: 'completed',
      })),
    ],
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage: {
      input_tokens: usage.input_tokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: usage.output_tokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: usage.input_tokens + usage.output_tokens,
    },
  };
}

/** The Responses event stream for a turn: named events, text and arguments in random pieces, the terminal event with the whole response. */
export function responsesEvents(turn: ScriptedResponsesTurn, random: Random): string {
  const whole = responsesObject(turn) as {
    output: {
      type: string;
      id: string;
      call_id?: string;
      name?: string;
      arguments?: string;
      content?: { text: string }[];
    }[];
  } & Record<string, JsonValue>;
  let sequence = 0;
  const events: string[] = [];
  const emit = (type: string, data: Record<string, JsonValue>): void =>
    void events.push(
      `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`,
    );
  emit('response.created', {
    response: { ...whole, status: 'in_progress', output: [], usage: null },
  });
  emit('response.in_progress', {
    response: { ...whole, status: 'in_progress', output: [], usage: null },
  });
  whole.output.forEach((item, index) => {
    if (item.type === 'message') {
      const text = item.content?.[0]?.text ?? '';
      emit('response.output_item.added', {
        output_index: index,
        item: { ...item, status: 'in_progress', content: [] },
      });
      emit('response.content_part.added', {
        item_id: item.id,
        output_index: index,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      });
      for (const piece of fragments(text, random))
        emit('response.output_text.delta', {
          item_id: item.id,
          output_index: index,
          content_index: 0,
          delta: piece,
          logprobs: [],
        });
      emit('response.output_text.done', {
        item_id: item.id,
        output_index: index,
        content_index: 0,
        text,
        logprobs: [],
      });
      emit('response.content_part.done', {
        item_id: item.id,
        output_index: index,
        content_index: 0,
        part: { type: 'output_text', text, annotations: [] },
      });
    } else {
      emit('response.output_item.added', {
        output_index: index,
        item: { ...item, status: 'in_progress', arguments: '' },
      });
      for (const piece of fragments(item.arguments ?? '', random))
        emit('response.function_call_arguments.delta', {
          item_id: item.id,
          output_index: index,
          delta: piece,
        });
      if (turn.ending === 'cut') return;
      emit('response.function_call_arguments.done', {
        item_id: item.id,
        output_index: index,
        arguments: item.arguments ?? '',
      });
    }
    emit('response.output_item.done', { output_index: index, item });
  });
  if (turn.ending === 'cut') return events.join('');
  emit(turn.ending === 'incomplete' ? 'response.incomplete' : 'response.completed', {
    response: whole,
  });
  return events.join('');
}
