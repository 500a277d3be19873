import type { JsonValue } from '../trace/trace.js';

/** A JSON-RPC 2.0 request id: MCP allows strings and integers, never null. */
export type JsonRpcId = string | number;

/** A JSON-RPC error object (https://www.jsonrpc.org/specification#error_object). */
export interface JsonRpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: JsonValue;
}

/** One parsed JSON-RPC message, by its kind; anything else on the line is `other` (forwarded, never recorded). */
export type JsonRpcMessage =
  | {
      readonly kind: 'request';
      readonly id: JsonRpcId;
      readonly method: string;
      readonly params: JsonValue | undefined;
    }
  | {
      readonly kind: 'notification';
      readonly method: string;
      readonly params: JsonValue | undefined;
    }
  | {
      readonly kind: 'response';
      readonly id: JsonRpcId;
      readonly result: JsonValue | undefined;
      readonly error: JsonRpcError | undefined;
    }
  | { readonly kind: 'other' };

const other = { kind: 'other' } as const;

/** Classifies one line of the stdio transport (newline-delimited JSON); malformed lines are `other`, never an exception. */
export function parseMessage(line: string): JsonRpcMessage {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return other;
  }
  return classifyMessage(value);
}

/** Classifies a parsed JSON value as a JSON-RPC message (an HTTP body holds one, or a batch of them). */
export function classifyMessage(value: unknown): JsonRpcMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return other;
  const record = value as Record<string, JsonValue>;
  const id = Object.hasOwn(record, 'id') ? record['id'] : undefined;
  const method = Object.hasOwn(record, 'method') ? record['method'] : undefined;
  const params = Object.hasOwn(record, 'params') ? record['params'] : undefined;
  const validId = typeof id === 'string' || typeof id === 'number' ? id : undefined;
  if (typeof method === 'string') {
    if (validId !== undefined) return { kind: 'request', id: validId, method, params };
    return id === undefined ? { kind: 'notification', method, params } : other;
  }
  if (validId === undefined) return other;
  const error = Object.hasOwn(record, 'error') ? asError(record['error']) : undefined;
  const result = Object.hasOwn(record, 'result') ? record['result'] : undefined;
  if (result === undefined && error === undefined) return other;
  return { kind: 'response', id: validId, result, error };
}

function asError(value: JsonValue | undefined): JsonRpcError | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const code = value['code'];
  const message = value['message'];
  if (typeof code !== 'number' || typeof message !== 'string') return undefined;
  return Object.hasOwn(value, 'data') && value['data'] !== undefined
    ? { code, message, data: value['data'] }
    : { code, message };
}

/** The response message answering request `id` (an HTTP body, or one SSE event's data). */
export function responseMessage(
  id: JsonRpcId | null,
  answer: { readonly result: JsonValue } | { readonly error: JsonRpcError },
): { readonly [key: string]: JsonValue } {
  return 'result' in answer
    ? { jsonrpc: '2.0', id, result: answer.result }
    : { jsonrpc: '2.0', id, error: answerError(answer.error) };
}

function answerError(error: JsonRpcError): { readonly [key: string]: JsonValue } {
  return error.data === undefined
    ? { code: error.code, message: error.message }
    : { code: error.code, message: error.message, data: error.data };
}

/** A JSON value as an object, or undefined. */
export function asObject(
  value: JsonValue | undefined,
): { readonly [key: string]: JsonValue } | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}
