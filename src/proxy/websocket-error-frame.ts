import type { CalltapeError } from '../errors.js';
import type { ProviderAdapter } from '../providers/provider-adapter.js';
import type { JsonValue } from '../trace/trace.js';

/**
 * An error as a WebSocket `error` event: the wire's own error envelope (`adapter.errorBody`, the
 * body its HTTP route answers with) under `type: "error"` with the HTTP status, as the Responses
 * API's WebSocket mode sends its errors — so the SDK raises the same error either way.
 */
export function websocketErrorFrame(adapter: ProviderAdapter, error: CalltapeError): string {
  const body = adapter.errorBody(error);
  const envelope: Record<string, JsonValue> =
    body !== null && typeof body === 'object' && !Array.isArray(body) ? body : { error: body };
  return JSON.stringify({ type: 'error', status: error.status, ...envelope });
}
