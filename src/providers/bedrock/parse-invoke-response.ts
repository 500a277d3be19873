import { decodeUtf8 } from '../../sse/decode-utf8.js';
import { anthropicMessagesAdapter } from '../anthropic-messages/anthropic-messages-adapter.js';
import { asObject, asString } from '../json-access.js';
import type { ParsedResponse, ResponseInput } from '../provider-adapter.js';
import { decodeEventStream } from './event-stream.js';
import { eventStreamContentType } from './parse-converse-response.js';

const encoder = new TextEncoder();

/**
 * Reads an InvokeModel answer for an Anthropic model: the whole Messages JSON, or (from
 * `invoke-with-response-stream`) event-stream frames whose `chunk` events carry each Anthropic
 * stream event as base64 `bytes`. The events are unwrapped into the Server-Sent Events the
 * Messages adapter reads, so both wires assemble a turn the same way. Never throws.
 */
export function parseInvokeResponse(input: ResponseInput): ParsedResponse {
  if (!input.contentType?.includes(eventStreamContentType))
    return anthropicMessagesAdapter.parseResponse({ ...input, contentType: 'application/json' });
  const decoded = decodeEventStream(input.body);
  const exception = decoded.events.find((event) => event.messageType !== 'event');
  if (exception || input.httpStatus >= 400)
    return {
      response: undefined,
      status: 'upstream-error',
      error: `HTTP ${input.httpStatus}: ${exception ? `${exception.type}: ${asString(asObject(exception.payload)?.['message']) ?? ''}` : decodeUtf8(input.body).slice(0, 500)}`,
    };
  let sse = '';
  for (const event of decoded.events) {
    const bytes = asString(asObject(event.payload)?.['bytes']);
    if (event.type !== 'chunk' || bytes === undefined) continue;
    const json = decodeUtf8([Uint8Array.from(atob(bytes), (character) => character.charCodeAt(0))]);
    const type = asString(asObject(JSON.parse(json) as never)?.['type']) ?? 'message';
    sse += `event: ${type}\ndata: ${json}\n\n`;
  }
  return anthropicMessagesAdapter.parseResponse({
    ...input,
    contentType: 'text/event-stream',
    body: [encoder.encode(sse)],
    // A frame cut short (or a broken one) is a stream that ended early.
    ending: decoded.trailing > 0 && input.ending === 'finished' ? 'upstream-failed' : input.ending,
  });
}
