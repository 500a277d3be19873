import { EventStreamCodec } from '@smithy/core/event-streams';
import type { JsonValue } from '../../trace/trace.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** The AWS SDK's own codec: it checks and writes the prelude and message CRC-32s. */
const codec = new EventStreamCodec(
  (bytes: Uint8Array) => decoder.decode(bytes),
  (text) => encoder.encode(text),
);

/** One decoded `application/vnd.amazon.eventstream` message. */
export interface StreamEvent {
  /** `:message-type`: `event`, or `exception` / `error` for a failure sent inside the stream. */
  readonly messageType: string;
  /** `:event-type` of an event (`contentBlockDelta`…), `:exception-type` of an exception. */
  readonly type: string;
  /** The JSON payload; undefined when the payload is not JSON. */
  readonly payload: JsonValue | undefined;
}

/** What a byte stream of event-stream messages decodes to. */
export interface DecodedEventStream {
  readonly events: readonly StreamEvent[];
  /** Bytes after the last whole message: a message the stream was cut inside. */
  readonly trailing: number;
  /** Why decoding stopped early (a bad length or CRC): the stream is not a valid event stream. */
  readonly invalid: string | undefined;
}

/** The smallest and largest message the format allows (prelude + CRCs; 16 MiB as the SDK's limit). */
const minimumLength = 16;
const maximumLength = 16 * 1024 * 1024;

/**
 * Decodes the messages of an event stream that arrived in chunks cut anywhere: each message
 * is framed by its own total length (the prelude's first four bytes), so a split only changes
 * where the bytes were, never what they decode to. Pure.
 */
export function decodeEventStream(chunks: readonly Uint8Array[]): DecodedEventStream {
  const bytes = joined(chunks);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const events: StreamEvent[] = [];
  let offset = 0;
  while (bytes.length - offset >= 4) {
    const length = view.getUint32(offset);
    if (length < minimumLength || length > maximumLength)
      return { events, trailing: bytes.length - offset, invalid: `a message length of ${length}` };
    if (bytes.length - offset < length) break;
    try {
      events.push(toEvent(codec.decode(bytes.subarray(offset, offset + length))));
    } catch (error) {
      return {
        events,
        trailing: bytes.length - offset,
        invalid: error instanceof Error ? error.message : String(error),
      };
    }
    offset += length;
  }
  return { events, trailing: bytes.length - offset, invalid: undefined };
}

/** Event-stream messages for `events`, each with correct CRCs, as Bedrock frames them. */
export function encodeEventStream(events: readonly StreamEvent[]): Uint8Array {
  const frames = events.map((event) =>
    codec.encode({
      headers: {
        [event.messageType === 'event' ? ':event-type' : ':exception-type']: {
          type: 'string',
          value: event.type,
        },
        ':content-type': { type: 'string', value: 'application/json' },
        ':message-type': { type: 'string', value: event.messageType },
      },
      body: encoder.encode(JSON.stringify(event.payload ?? {})),
    }),
  );
  return joined(frames);
}

function toEvent(message: {
  headers: Record<string, { type: string; value: unknown }>;
  body: Uint8Array;
}): StreamEvent {
  const header = (name: string): string | undefined => {
    const value = Object.hasOwn(message.headers, name) ? message.headers[name]?.value : undefined;
    return typeof value === 'string' ? value : undefined;
  };
  const messageType = header(':message-type') ?? 'event';
  let payload: JsonValue | undefined;
  try {
    payload = JSON.parse(decoder.decode(message.body)) as JsonValue;
  } catch {
    payload = undefined;
  }
  return {
    messageType,
    type: header(messageType === 'event' ? ':event-type' : ':exception-type') ?? '',
    payload,
  };
}

function joined(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  let total = 0;
  for (const chunk of chunks) total += chunk.length;
  const result = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    result.set(chunk, offset);
    offset += chunk.length;
  }
  return result;
}
