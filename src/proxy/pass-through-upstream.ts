import type { UpstreamName } from '../providers/wire-route.js';

/** Where a request no adapter captures goes: a configured upstream, and for Vertex AI the location its path names. */
export interface PassThroughTarget {
  readonly upstream: UpstreamName;
  /** Vertex AI: the location in `/v1…/projects/{project}/locations/{location}/…`. */
  readonly location?: string | undefined;
}

/** `/v1/projects/…`, `/v1beta1/projects/…`: Vertex AI, the location from the path. */
const vertexPath = /^\/v1(?:beta1)?\/projects\/[^/]+\/locations\/([^/]+)(?:\/|$)/;
/** A Gemini model method under `/v1` (`/v1/models/gemini-2.5-flash:countTokens`); OpenAI's `/v1/models/{id}` has no `:method`. */
const geminiV1Path = /^\/v1\/models\/[^/]+:[A-Za-z]+$/;

/**
 * The upstream a pass-through request goes to, by its path: `/v1beta/…` and Gemini's `/v1`
 * model methods to Gemini, `/v1…/projects/…` to Vertex AI, `/api/…` to Ollama, `/openai/…` to
 * Azure OpenAI; anything else to Anthropic when an Anthropic client sent it, else to OpenAI (as
 * before per-wire upstreams). Pure.
 */
export function passThroughTarget(path: string, sentByAnthropicClient: boolean): PassThroughTarget {
  const vertex = vertexPath.exec(path);
  if (vertex) return { upstream: 'vertex', location: vertex[1] };
  if (path.startsWith('/v1beta/') || geminiV1Path.test(path)) return { upstream: 'gemini' };
  if (path.startsWith('/api/')) return { upstream: 'ollama' };
  if (path.startsWith('/openai/')) return { upstream: 'azure' };
  return { upstream: sentByAnthropicClient ? 'anthropic' : 'openai' };
}
