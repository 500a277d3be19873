import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An attribute value as decoded from OTLP JSON. */
export type DecodedValue = string | number | boolean | DecodedValue[] | undefined;

/** One span as the receiver decoded it. */
export interface ReceivedSpan {
  readonly name: string;
  /** OTLP span kind: 1 internal, 2 server, 3 client. */
  readonly kind: number;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly startMs: number;
  readonly endMs: number;
  readonly attributes: Record<string, DecodedValue>;
  readonly events: readonly {
    readonly name: string;
    readonly attributes: Record<string, DecodedValue>;
  }[];
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  readonly status: number;
  readonly resource: Record<string, DecodedValue>;
}

/** How the receiver answers export requests. */
export type ReceiverBehaviour = 'accept' | 'reject' | 'hang';

export interface OtlpReceiver {
  /** Base URL (what `--otlp-endpoint` takes). */
  readonly url: string;
  /** Every export request: its content type and raw bytes. */
  readonly requests: {
    readonly path: string;
    readonly contentType: string | undefined;
    readonly body: Buffer;
  }[];
  /** Spans of every OTLP/JSON request accepted so far. */
  spans(): ReceivedSpan[];
  setBehaviour(behaviour: ReceiverBehaviour): void;
  close(): Promise<void>;
}

interface JsonAnyValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: JsonAnyValue[] };
}
interface JsonKeyValue {
  key: string;
  value: JsonAnyValue;
}
interface JsonSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: JsonKeyValue[];
  events?: { name: string; attributes?: JsonKeyValue[] }[];
  status?: { code?: number };
}
export interface JsonRequest {
  resourceSpans?: {
    resource?: { attributes?: JsonKeyValue[] };
    scopeSpans?: { spans?: JsonSpan[] }[];
  }[];
}

/**
 * A collector stand-in on a loopback port chosen by the OS: it receives OTLP/HTTP export
 * requests at /v1/traces and decodes the OTLP JSON encoding (the protobuf mapping the SDK's
 * JSON serializer writes). Protobuf requests are kept as bytes.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: OtlpReceiver['requests'][number][] = [];
  const held: ServerResponse[] = [];
  let behaviour: ReceiverBehaviour = 'accept';
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({
        path: request.url ?? '',
        contentType: request.headers['content-type'],
        body: Buffer.concat(chunks),
      });
      if (behaviour === 'hang') return void held.push(response);
      if (behaviour === 'reject')
        return void response
          .writeHead(400, { 'content-type': 'application/json' })
          .end('{"code":3,"message":"rejected by the test"}');
      response
        .writeHead(200, { 'content-type': request.headers['content-type'] ?? 'application/json' })
        .end(request.headers['content-type']?.includes('json') ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    spans: () =>
      requests
        .filter((request) => request.contentType?.includes('json') && request.path === '/v1/traces')
        .flatMap((request) =>
          decodeRequest(JSON.parse(request.body.toString('utf8')) as JsonRequest),
        ),
    setBehaviour(next) {
      behaviour = next;
    },
    async close() {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The spans of one OTLP/JSON export request. */
export function decodeRequest(request: JsonRequest): ReceivedSpan[] {
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        name: span.name,
        kind: span.kind,
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId === '' ? undefined : span.parentSpanId,
        startMs: Number(BigInt(span.startTimeUnixNano) / 1_000_000n),
        endMs: Number(BigInt(span.endTimeUnixNano) / 1_000_000n),
        attributes: attributesOf(span.attributes),
        events: (span.events ?? []).map((event) => ({
          name: event.name,
          attributes: attributesOf(event.attributes),
        })),
        status: span.status?.code ?? 0,
        resource,
      })),
    );
  });
}

function attributesOf(list: readonly JsonKeyValue[] | undefined): Record<string, DecodedValue> {
  return Object.fromEntries((list ?? []).map((entry) => [entry.key, valueOf(entry.value)]));
}

function valueOf(value: JsonAnyValue): DecodedValue {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
}
