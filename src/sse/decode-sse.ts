import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** One Server-Sent Event: the `event:` name (undefined for plain `data:` events) and its data. */
export interface ServerSentEvent {
  readonly event: string | undefined;
  readonly data: string;
}

/**
 * Decodes a byte stream of Server-Sent Events. Bytes may be split anywhere, including inside
 * a UTF-8 sequence (TextDecoder in streaming mode carries the partial sequence over) or a line
 * (eventsource-parser buffers it). An event the stream ends in the middle of is dropped, as the
 * SSE specification requires; callers detect truncation from the events they did see.
 */
export function decodeSse(chunks: Iterable<Uint8Array>): ServerSentEvent[] {
  const events: ServerSentEvent[] = [];
  const parser = createParser({
    onEvent: (message: EventSourceMessage) =>
      events.push({ event: message.event, data: message.data }),
  });
  const decoder = new TextDecoder('utf-8');
  for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
  const rest = decoder.decode();
  if (rest.length > 0) parser.feed(rest);
  return events;
}
