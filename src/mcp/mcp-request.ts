import { stableStringify } from '../stable-stringify.js';
import type { JsonValue } from '../trace/trace.js';
import { asObject } from './json-rpc.js';

/** What identifies an MCP request in a cassette: the method and the parameters that decide its answer. */
export interface CanonicalMcpRequest {
  readonly method: string;
  readonly params: { readonly [key: string]: JsonValue };
}

/**
 * The canonical form of a request: `_meta` (progress tokens, trace ids) never counts, and
 * `initialize` is matched by method alone — a client upgrade changes its clientInfo, not the
 * server's answer. Keys are sorted in the text, so argument order never matters.
 */
export function canonicalMcpRequest(
  method: string,
  params: JsonValue | undefined,
): CanonicalMcpRequest {
  if (method === 'initialize') return { method, params: {} };
  const { _meta: _ignored, ...rest } = asObject(params) ?? {};
  return { method, params: rest };
}

export function canonicalMcpText(request: CanonicalMcpRequest): string {
  return stableStringify(request);
}

/** What a request is about, for listings: the tool or prompt name, or the resource URI. */
export function mcpSubject(method: string, params: JsonValue | undefined): string | undefined {
  const object = asObject(params);
  const value = object?.[method.startsWith('resources/') ? 'uri' : 'name'];
  return typeof value === 'string' ? value : undefined;
}

/** Methods recorded and replayed; everything else (ping, logging, notifications) is relayed only. */
export function isRecordedMethod(method: string): boolean {
  return (
    method === 'initialize' ||
    method.startsWith('tools/') ||
    method.startsWith('resources/') ||
    method.startsWith('prompts/') ||
    method === 'completion/complete'
  );
}
