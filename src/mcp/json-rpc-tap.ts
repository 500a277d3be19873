import { createParser, type EventSourceParser } from 'eventsource-parser';
import { classifyMessage, type JsonRpcMessage } from './json-rpc.js';

/**
 * Reads the JSON-RPC messages a Streamable HTTP server sends, beside the bytes being forwarded:
 * an `application/json` body (one message or a batch) once it is whole, or each event of a
 * `text/event-stream` as it completes. Bounded: a JSON body or an unfinished event larger than
 * `maxBytes` stops the tap (the bytes still reach the client; they are just not read here).
 * Pure apart from the callback.
 */
export class JsonRpcTap {
  private readonly parser: EventSourceParser | undefined;
  private readonly decoder = new TextDecoder('utf-8');
  private readonly body: Buffer[] = [];
  private pendingBytes = 0;
  private stopped = false;

  constructor(
    contentType: string | undefined,
    private readonly onMessage: (message: JsonRpcMessage) => void,
    private readonly maxBytes: number,
  ) {
    const type = contentType?.split(';')[0]?.trim().toLowerCase();
    this.stopped = type !== 'text/event-stream' && type !== 'application/json';
    if (type === 'text/event-stream') {
      this.parser = createParser({
        onEvent: (event) => {
          this.pendingBytes = 0;
          this.emit(event.data);
        },
      });
    }
  }

  /** Feeds the next chunk of the response body. */
  push(chunk: Uint8Array): void {
    if (this.stopped) return;
    this.pendingBytes += chunk.length;
    if (this.pendingBytes > this.maxBytes) {
      this.stopped = true;
      this.body.length = 0;
      return;
    }
    if (this.parser) this.parser.feed(this.decoder.decode(chunk, { stream: true }));
    else this.body.push(Buffer.from(chunk));
  }

  /** The body ended: a JSON body is read now. */
  end(): void {
    if (this.stopped || this.parser) return;
    this.emit(Buffer.concat(this.body).toString('utf8'));
    this.body.length = 0;
  }

  private emit(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return;
    }
    for (const item of Array.isArray(value) ? value : [value])
      this.onMessage(classifyMessage(item));
  }
}
