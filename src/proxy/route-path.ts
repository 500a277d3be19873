import { capturedRouteNames } from '../providers/adapters.js';

/** The variable that sets an agent's base URL, per wire, and the path segment its SDK adds itself. */
const addedBySdk = {
  OPENAI_BASE_URL: '/v1',
  ANTHROPIC_BASE_URL: '/v1',
  GOOGLE_GEMINI_BASE_URL: '/v1beta',
  OLLAMA_HOST: '/api',
  AZURE_OPENAI_ENDPOINT: '/openai',
} as const;

/**
 * A request path that almost matches a route calltape captures: the agent's base URL is off by
 * the segment its SDK adds (`/v1`, `/v1beta`, `/api`, `/openai`). Named by the variable to fix
 * and what its value ends with.
 */
export interface NearMiss {
  readonly variable: keyof typeof addedBySdk;
  /** What the base URL should end with after the proxy's origin: `/v1` (OpenAI SDKs) or nothing (Anthropic's SDK adds `/v1`). */
  readonly suffix: '/v1' | '';
}

/** The path a request is handled and stored under, and whether it looks like a misconfigured base URL. */
export interface RoutedPath {
  readonly path: string;
  readonly nearMiss: NearMiss | undefined;
}

const openAi: NearMiss = { variable: 'OPENAI_BASE_URL', suffix: '/v1' };
const anthropic: NearMiss = { variable: 'ANTHROPIC_BASE_URL', suffix: '' };
/** Base URLs that repeat the segment their SDK adds: the variable to fix, by the doubled prefix. */
const doubled: readonly (readonly [string, NearMiss])[] = [
  ['/v1beta/v1beta/', { variable: 'GOOGLE_GEMINI_BASE_URL', suffix: '' }],
  ['/api/api/', { variable: 'OLLAMA_HOST', suffix: '' }],
  ['/openai/openai/', { variable: 'AZURE_OPENAI_ENDPOINT', suffix: '' }],
];
/** OpenAI routes an SDK posts to under a base URL without `/v1`. */
const withoutVersion = new Set(['/chat/completions', '/responses', '/embeddings', '/completions']);

/**
 * Canonical path and near-miss check for a request path (prefixes and query already removed).
 * `POST /messages` is Anthropic Messages under a base URL that ends in `/v1` (the Vercel AI
 * SDK's Anthropic provider): served and stored as `/v1/messages`, so a recording made through
 * either base URL matches the other. Pure.
 */
export function routePath(method: string, path: string): RoutedPath {
  if (method === 'POST' && path === '/messages')
    return { path: '/v1/messages', nearMiss: undefined };
  if (withoutVersion.has(path)) return { path, nearMiss: openAi };
  if (path.startsWith('/v1/v1/'))
    return { path, nearMiss: path === '/v1/v1/messages' ? anthropic : openAi };
  for (const [prefix, nearMiss] of doubled) if (path.startsWith(prefix)) return { path, nearMiss };
  return { path, nearMiss: undefined };
}

/** What to tell the user about a near miss: the base URL to set, with the proxy's origin. */
export function nearMissHint(
  nearMiss: NearMiss,
  method: string,
  path: string,
  origin: string,
): string {
  return `calltape: ${method} ${path} is not one of calltape's routes (${capturedRouteNames()}): the agent's base URL looks off by a ${addedBySdk[nearMiss.variable]}; set ${nearMiss.variable}=${origin}${nearMiss.suffix}`;
}
