import type { ProviderAdapter } from './provider-adapter.js';
import { splitPathQuery, type WireRoute } from './wire-route.js';

/**
 * The route a stored round was captured under, rebuilt from its stored method and path (query
 * included, credentials already redacted), so a recording re-parses as it was captured.
 * Undefined for a path its adapter no longer routes (an old cassette): parsing then falls back
 * on the body alone.
 */
export function routeOfStored(
  adapter: ProviderAdapter,
  method: string,
  storedPath: string,
): WireRoute | undefined {
  const { path, query } = splitPathQuery(storedPath);
  return adapter.route(method, path, query);
}
