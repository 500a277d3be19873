import { decodeSse } from '../../sse/decode-sse.js';
import type { JsonValue } from '../../trace/trace.js';
import { asArray, asObject, asString, parseJson } from '../json-access.js';

/** A whole Responses `response` re-expressed as its event stream, ending with the terminal event carrying it whole. */
export function toResponsesStream(responseText: string): string | undefined {
  const parsed = parseJson(responseText);
  const response = parsed.ok ? asObject(parsed.value) : undefined;
  if (!response || response['object'] !== 'response') return undefined;
  let sequence = 0;
  const events: string[] = [];
  const emit = (type: string, data: Record<string, JsonValue>): void =>
    void events.push(
      `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`,
    );
  emit('response.created', {
    response: { ...response, status: 'in_progress', output: [], usage: null },
  });
  asArray(response['output']).forEach((value, index) => {
    const item = asObject(value) ?? {};
    const id = asString(item['id']) ?? `item_${index}`;
    if (item['type'] === 'message') {
      emit('response.output_item.added', {
        output_index: index,
        item: { ...item, status: 'in_progress', content: [] },
      });
      asArray(item['content']).forEach((partValue, contentIndex) => {
        const part = asObject(partValue) ?? {};
        const text = asString(part['text']) ?? '';
        emit('response.content_part.added', {
          item_id: id,
          output_index: index,
          content_index: contentIndex,
          part: { ...part, text: '' },
        });
        if (part['type'] === 'output_text') {
          emit('response.output_text.delta', {
            item_id: id,
            output_index: index,
            content_index: contentIndex,
            delta: text,
            logprobs: [],
          });
          emit('response.output_text.done', {
            item_id: id,
            output_index: index,
            content_index: contentIndex,
            text,
            logprobs: [],
          });
        }
        emit('response.content_part.done', {
          item_id: id,
          output_index: index,
          content_index: contentIndex,
          part,
        });
      });
    } else if (item['type'] === 'function_call') {
      const args = asString(item['arguments']) ?? '';
      emit('response.output_item.added', {
        output_index: index,
        item: { ...item, status: 'in_progress', arguments: '' },
      });
      emit('response.function_call_arguments.delta', {
        item_id: id,
        output_index: index,
        delta: args,
      });
      emit('response.function_call_arguments.done', {
        item_id: id,
        output_index: index,
        arguments: args,
      });
    } else {
      emit('response.output_item.added', { output_index: index, item });
    }
    emit('response.output_item.done', { output_index: index, item });
  });
  const status = asString(response['status']);
  emit(
    status === 'incomplete'
      ? 'response.incomplete'
      : status === 'failed'
        ? 'response.failed'
        : 'response.completed',
    { response },
  );
  return events.join('');
}

/** A finished Responses stream as the whole `response` a non-streaming request gets: the terminal event's. */
export function toResponsesObject(streamText: string): string | undefined {
  for (const event of decodeSse([new TextEncoder().encode(streamText)]).reverse()) {
    const parsed = parseJson(event.data);
    const data = parsed.ok ? asObject(parsed.value) : undefined;
    const type = asString(data?.['type']);
    if (
      type === 'response.completed' ||
      type === 'response.incomplete' ||
      type === 'response.failed'
    )
      return JSON.stringify(data?.['response'] ?? null);
  }
  return undefined;
}
