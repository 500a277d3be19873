import type { JsonValue } from '../../trace/trace.js';
import { asArray, asObject, asString, parseJson, type JsonObject } from '../json-access.js';
import { assembleOllamaChat } from './assemble-ollama-chat.js';
import { decodeNdjson } from './decode-ndjson.js';

const line = (value: JsonObject): string => `${JSON.stringify(value)}\n`;

/**
 * A whole `/api/chat` answer as the NDJSON stream Ollama would have sent: thinking, text and the
 * calls (whole, as Ollama sends them) each in an object of their own, then the `done` object with
 * every other field of the answer (reason, counts, durations).
 */
export function toOllamaStream(wholeText: string): string | undefined {
  const parsed = parseJson(wholeText);
  const whole = parsed.ok ? asObject(parsed.value) : undefined;
  if (!whole || whole['error'] !== undefined) return undefined;
  const { message: messageValue, done: _done, ...rest } = whole;
  const message = asObject(messageValue) ?? {};
  const head = { model: whole['model'] ?? '', created_at: whole['created_at'] ?? '' };
  const role = message['role'] ?? 'assistant';
  const lines: string[] = [];
  const thinking = asString(message['thinking']);
  if (thinking)
    lines.push(line({ ...head, message: { role, content: '', thinking }, done: false }));
  const content = asString(message['content']);
  if (content) lines.push(line({ ...head, message: { role, content }, done: false }));
  const calls = [...asArray(message['tool_calls'])];
  if (calls.length > 0)
    lines.push(line({ ...head, message: { role, content: '', tool_calls: calls }, done: false }));
  lines.push(line({ ...rest, message: { role, content: '' }, done: true }));
  return lines.join('');
}

/**
 * A finished NDJSON stream as the whole answer a `"stream": false` request gets: the text and
 * thinking joined, the calls as they were sent, and the fields of the `done` object. Undefined
 * for a stream that did not finish.
 */
export function toOllamaWhole(streamText: string): string | undefined {
  const lines = decodeNdjson([new TextEncoder().encode(streamText)]);
  if (assembleOllamaChat(lines, 'finished').status !== 'complete') return undefined;
  const objects: JsonObject[] = lines.values.flatMap((value) => {
    const object = asObject(value);
    return object ? [object] : [];
  });
  const final = objects.find((object) => object['done'] === true) ?? {};
  const messages = objects.map((object) => asObject(object['message']) ?? {});
  const joined = (field: string): string =>
    messages.map((message) => asString(message[field]) ?? '').join('');
  const calls: JsonValue[] = messages.flatMap((message) => [...asArray(message['tool_calls'])]);
  const thinking = joined('thinking');
  const { model, created_at: createdAt, message: _message, done: _done, ...rest } = final;
  return JSON.stringify({
    model: model ?? '',
    created_at: createdAt ?? '',
    message: {
      role: asString(asObject(final['message'])?.['role']) ?? 'assistant',
      content: joined('content'),
      ...(thinking !== '' ? { thinking } : {}),
      ...(calls.length > 0 ? { tool_calls: calls } : {}),
    },
    ...rest,
    done: true,
  });
}
