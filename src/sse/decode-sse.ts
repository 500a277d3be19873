import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { decodeUtf8 } from './decode-utf8.js';

/** One Server-Sent Event: the `event:` name (undefined for plain `data:` events) and its data. */
export interface ServerSentEvent {
  readonly event: string | undefined;
  readonly data: string;
}

/**
 * Decodes a byte stream of Server-Sent Events. Bytes may be split anywhere, including inside
 * a UTF-8 sequence (`decodeUtf8` decodes them joined) or a line. An event the stream ends in
 * the middle of is dropped, as the SSE specification requires; callers detect truncation from
 * the events they did see.
 */
export function decodeSse(chunks: Iterable<Uint8Array>): ServerSentEvent[] {
  const events: ServerSentEvent[] = [];
  const parser = createParser({
    onEvent: (message: EventSourceMessage) =>
      events.push({ event: message.event, data: message.data }),
  });
  parser.feed(decodeUtf8(chunks));
  return events;
}
