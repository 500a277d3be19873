import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { JsonValue } from '../../src/trace/trace.js';
import { seededRandom } from './random.js';

/** What the scripted upstream answers to one request. */
export type ScriptedResponse =
  | {
      readonly kind: 'json';
      readonly status?: number;
      readonly headers?: Record<string, string>;
      readonly body: JsonValue;
      readonly gzip?: boolean;
    }
  | {
      readonly kind: 'sse';
      readonly status?: number;
      readonly headers?: Record<string, string>;
      /** The SSE text exactly as sent. */
      readonly body: string;
      /** Write the bytes in pieces of random length (1..maxPiece bytes); default one piece per event. */
      readonly split?: { readonly seed: number; readonly maxPiece: number };
      /** Delay between writes (ms); default 0 (a macrotask turn between writes). */
      readonly gapMs?: number;
      readonly gzip?: boolean;
      /** Destroy the connection after writing instead of ending the response (a broken stream). */
      readonly breakAfter?: boolean;
    }
  /** Stream `data: {"n":…}` events every `gapMs` until the client goes away. */
  | { readonly kind: 'endless-sse'; readonly gapMs: number }
  /** Anything else: the test writes the response itself. */
  | { readonly kind: 'custom'; readonly handle: (response: ServerResponse) => Promise<void> | void }
  /** Destroy the socket without answering. */
  | { readonly kind: 'destroy' }
  /** Never answer. */
  | { readonly kind: 'hang' };

/** A request the scripted upstream received. */
export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  /** Resolves when the request's connection closed or its response ended, with the time (performance.now()). */
  readonly closed: Promise<number>;
}

export type Script = (request: ReceivedRequest, callNumber: number) => ScriptedResponse;

export interface ScriptedUpstream {
  /** Origin, e.g. `http://127.0.0.1:54321`. */
  readonly url: string;
  readonly received: ReceivedRequest[];
  /** Replaces the script; responses are chosen by call number (0-based) from here on. */
  setScript(script: Script | readonly ScriptedResponse[]): void;
  close(): Promise<void>;
}

/**
 * An OpenAI/Anthropic-compatible fake upstream on a loopback port chosen by the OS. It emits
 * the providers' real wire format as scripted, split into writes as the test asks.
 */
export async function startScriptedUpstream(
  initial: Script | readonly ScriptedResponse[] = [],
): Promise<ScriptedUpstream> {
  let script = toScript(initial);
  let calls = 0;
  const received: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      const closed = new Promise<number>((resolve) =>
        response.once('close', () => resolve(performance.now())),
      );
      const entry: ReceivedRequest = {
        method: request.method ?? 'GET',
        url: request.url ?? '/',
        headers: request.headers,
        body: Buffer.concat(parts).toString('utf8'),
        closed,
      };
      received.push(entry);
      void answer(script(entry, calls++), request, response);
    });
  });
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    setScript(next) {
      script = toScript(next);
      calls = 0;
    },
    close: () => closeServer(server),
  };
}

function toScript(script: Script | readonly ScriptedResponse[]): Script {
  if (typeof script === 'function') return script;
  return (request, callNumber) => {
    const next = script[callNumber];
    if (next) return next;
    if (request.url.endsWith('/models'))
      return {
        kind: 'json',
        body: {
          object: 'list',
          data: [{ id: 'gpt-4o-mini', object: 'model', created: 0, owned_by: 'system' }],
        },
      };
    return {
      kind: 'json',
      status: 500,
      body: {
        error: {
          message: `scripted upstream: no response scripted for call ${callNumber}`,
          type: 'server_error',
          param: null,
          code: null,
        },
      },
    };
  };
}

async function answer(
  scripted: ScriptedResponse,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  switch (scripted.kind) {
    case 'destroy':
      request.socket.destroy();
      return;
    case 'hang':
      return;
    case 'custom':
      await scripted.handle(response);
      return;
    case 'json': {
      const text = Buffer.from(JSON.stringify(scripted.body));
      const body = scripted.gzip ? gzipSync(text) : text;
      response.writeHead(scripted.status ?? 200, {
        'content-type': 'application/json',
        'content-length': String(body.length),
        'x-request-id': 'req_scripted',
        ...(scripted.gzip ? { 'content-encoding': 'gzip' } : {}),
        ...scripted.headers,
      });
      response.end(body);
      return;
    }
    case 'endless-sse': {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let n = 0; !response.destroyed; n++) {
        response.write(`data: ${JSON.stringify({ n })}\n\n`);
        await delay(scripted.gapMs);
      }
      return;
    }
    case 'sse':
      await writeSse(scripted, request, response);
  }
}

async function writeSse(
  scripted: Extract<ScriptedResponse, { kind: 'sse' }>,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  response.writeHead(scripted.status ?? 200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-request-id': 'req_scripted',
    ...(scripted.gzip ? { 'content-encoding': 'gzip' } : {}),
    ...scripted.headers,
  });
  const bytes = Buffer.from(scripted.body, 'utf8');
  const payload = scripted.gzip ? gzipSync(bytes) : bytes;
  for (const piece of pieces(payload, scripted)) {
    if (response.destroyed) return;
    response.write(piece);
    await delay(scripted.gapMs ?? 0);
  }
  if (scripted.breakAfter) request.socket.destroy();
  else response.end();
}

function pieces(payload: Buffer, scripted: Extract<ScriptedResponse, { kind: 'sse' }>): Buffer[] {
  if (scripted.split) {
    const random = seededRandom(scripted.split.seed);
    const result: Buffer[] = [];
    for (let start = 0; start < payload.length;) {
      const length = 1 + random.int(scripted.split.maxPiece);
      result.push(payload.subarray(start, start + length));
      start += length;
    }
    return result;
  }
  if (scripted.gzip) return [payload];
  const text = payload.toString('utf8');
  return text.split(/(?<=\n\n)/).map((event) => Buffer.from(event, 'utf8'));
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
