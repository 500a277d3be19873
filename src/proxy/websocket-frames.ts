import { decodeSse } from '../sse/decode-sse.js';
import { requestedModel } from './route-types.js';

/** Server events that end a `response.create` round trip. */
const terminal = new Set(['response.completed', 'response.incomplete', 'response.failed', 'error']);

/** The event type of a frame's text; only the type is needed, so whole frames are not parsed on the relay path. */
export function frameType(text: string): string | undefined {
  const match = /"type"\s*:\s*"([^"]+)"/.exec(text.slice(0, 200));
  return match?.[1];
}

/** Whether a server frame ends its round trip. */
export function endsRound(text: string): boolean {
  const type = frameType(text);
  return type !== undefined && terminal.has(type);
}

/** A frame as the SSE event it is stored as: its type as the event name, its text as the data, unchanged. */
export function frameEvent(text: string): string {
  return `event: ${frameType(text) ?? 'message'}\ndata: ${text}\n\n`;
}

/** The frames a stored round holds (its SSE events' data, in order). */
export function storedFrames(body: Uint8Array | undefined): string[] {
  return decodeSse([body ?? Buffer.alloc(0)]).map((event) => event.data);
}

/** Close codes a peer may send on (1005/1006 are reserved for "no code"). */
export function validCode(code: number): number {
  return code === 1005 || code === 1006 || code < 1000 || code >= 5000 ? 1000 : code;
}

/** The model a `response.create` frame asks for, for metric labels. */
export function frameModel(frame: Uint8Array): string | undefined {
  try {
    return requestedModel(JSON.parse(Buffer.from(frame).toString('utf8')));
  } catch {
    return undefined;
  }
}
