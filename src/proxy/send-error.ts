import type { ServerResponse } from 'node:http';
import type { CalltapeError } from '../errors.js';
import type { ProviderAdapter } from '../providers/provider-adapter.js';

/** Answers with an error in the provider's own envelope, so the agent's SDK raises a typed error. */
export function sendError(
  response: ServerResponse,
  adapter: ProviderAdapter,
  error: CalltapeError,
): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const body = JSON.stringify(adapter.errorBody(error));
  response.writeHead(error.status, {
    ...adapter.errorHeaders?.(error),
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}
