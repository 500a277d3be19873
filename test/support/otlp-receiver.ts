import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
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
  /** Spans of every export request received so far (protobuf or JSON), decoded by the OTel protobuf root. */
  spans(): ReceivedSpan[];
  setBehaviour(behaviour: ReceiverBehaviour): void;
  close(): Promise<void>;
}

/** An OTLP AnyValue as the protobuf root's `toObject` gives it (int64 as a string, bytes as base64). */
interface AnyValueObject {
  stringValue?: string;
  intValue?: string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValueObject[] };
}
interface KeyValueObject {
  key: string;
  value?: AnyValueObject;
}
interface SpanObject {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: KeyValueObject[];
  events?: { name: string; attributes?: KeyValueObject[] }[];
  status?: { code?: number };
}
interface RequestObject {
  resourceSpans?: {
    resource?: { attributes?: KeyValueObject[] };
    scopeSpans?: { spans?: SpanObject[] }[];
  }[];
}
/** An OTLP/JSON export request as it arrives (ids in hex, as the OTLP JSON encoding has them). */
export interface JsonRequest {
  resourceSpans?: {
    resource?: unknown;
    scopeSpans?: { spans?: { traceId?: string; spanId?: string; parentSpanId?: string }[] }[];
  }[];
}

/** The message type of the OTel JS packages' generated protobuf root (protobufjs static module). */
interface MessageType {
  decode(bytes: Uint8Array): object;
  fromObject(object: object): object;
  toObject(message: object, options: object): RequestObject;
}
/**
 * `ExportTraceServiceRequest` from the protobuf root that @opentelemetry/otlp-transformer
 * generates from opentelemetry-proto. The current line (0.2xx after 0.203) writes protobuf by
 * hand and no longer ships a decoder, so the last release that does is a devDependency under
 * the alias `otlp-transformer-protobuf`; the wire format is the same proto3 message.
 */
const exportRequest = (
  createRequire(import.meta.url)('otlp-transformer-protobuf/build/src/generated/root.js') as {
    opentelemetry: {
      proto: { collector: { trace: { v1: { ExportTraceServiceRequest: MessageType } } } };
    };
  }
).opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
const asObject = { longs: String, enums: Number, bytes: String, defaults: false, arrays: true };

/** The spans of one OTLP/protobuf export request, decoded by the OTel protobuf root. */
export function decodeProtobuf(bytes: Uint8Array): ReceivedSpan[] {
  return spansOf(exportRequest.toObject(exportRequest.decode(bytes), asObject));
}

/**
 * The spans of one OTLP/JSON export request, read through the same protobuf root: the JSON
 * encoding is the protobuf mapping except that ids are hex, where the root's `fromObject`
 * expects base64 for bytes fields, so those are converted first.
 */
export function decodeRequest(request: JsonRequest): ReceivedSpan[] {
  const hexToBase64 = (hex: string | undefined): string | undefined =>
    hex === undefined ? undefined : Buffer.from(hex, 'hex').toString('base64');
  const converted = {
    ...request,
    resourceSpans: (request.resourceSpans ?? []).map((resourceSpans) => ({
      ...resourceSpans,
      scopeSpans: (resourceSpans.scopeSpans ?? []).map((scope) => ({
        ...scope,
        spans: (scope.spans ?? []).map((span) => ({
          ...span,
          traceId: hexToBase64(span.traceId),
          spanId: hexToBase64(span.spanId),
          parentSpanId: hexToBase64(span.parentSpanId),
        })),
      })),
    })),
  };
  return spansOf(exportRequest.toObject(exportRequest.fromObject(converted), asObject));
}

/**
 * A collector stand-in on a loopback port chosen by the OS: it receives OTLP/HTTP export
 * requests at /v1/traces, keeps their bytes, and decodes them (protobuf or JSON) with the OTel
 * JS packages' own generated protobuf root, not by hand.
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
        .filter((request) => request.path === '/v1/traces')
        .flatMap((request) =>
          request.contentType?.includes('json')
            ? decodeRequest(JSON.parse(request.body.toString('utf8')) as JsonRequest)
            : decodeProtobuf(request.body),
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

function spansOf(request: RequestObject): ReceivedSpan[] {
  const hex = (base64: string | undefined): string | undefined =>
    base64 === undefined || base64 === ''
      ? undefined
      : Buffer.from(base64, 'base64').toString('hex');
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        name: span.name,
        kind: span.kind,
        traceId: hex(span.traceId) ?? '',
        spanId: hex(span.spanId) ?? '',
        parentSpanId: hex(span.parentSpanId),
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

function attributesOf(list: readonly KeyValueObject[] | undefined): Record<string, DecodedValue> {
  return Object.fromEntries((list ?? []).map((entry) => [entry.key, valueOf(entry.value)]));
}

function valueOf(value: AnyValueObject | undefined): DecodedValue {
  if (value === undefined) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
}
