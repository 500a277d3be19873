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
 * A SigV4 `Authorization` whose credential scope names service `bedrock`
 * (`AWS4-HMAC-SHA256 Credential=AKID/20261203/us-east-1/bedrock/aws4_request, …`).
 */
const bedrockSignature = /^AWS4-HMAC-SHA256\s+Credential=[^,\s]*\/bedrock\/aws4_request(?:[,\s]|$)/;

/**
 * Whether a request is signed for Bedrock: its `Authorization` is AWS SigV4 for service
 * `bedrock`, which the AWS SDK and `aws4fetch` put on every Bedrock Runtime request and no
 * OpenAI, Anthropic or Gemini client ever sends (they authenticate with keys). Pure.
 */
export function signedForBedrock(authorization: string | undefined): boolean {
  return authorization !== undefined && bedrockSignature.test(authorization);
}

/**
 * The upstream a pass-through request goes to: Bedrock when it is signed for Bedrock (whatever
 * its path: `/guardrail/…`, `/async-invoke`, `count-tokens`), else by its path: `/v1beta/…` and
 * Gemini's `/v1` model methods to Gemini, `/v1…/projects/…` to Vertex AI, `/api/…` to Ollama,
 * `/openai/…` to Azure OpenAI; anything else to Anthropic when an Anthropic client sent it, else
 * to OpenAI (as before per-wire upstreams). Pure.
 */
export function passThroughTarget(
  path: string,
  sentByAnthropicClient: boolean,
  signedForBedrock = false,
): PassThroughTarget {
  if (signedForBedrock) return { upstream: 'bedrock' };
  const vertex = vertexPath.exec(path);
  if (vertex) return { upstream: 'vertex', location: vertex[1] };
  if (path.startsWith('/v1beta/') || geminiV1Path.test(path)) return { upstream: 'gemini' };
  if (path.startsWith('/api/')) return { upstream: 'ollama' };
  if (path.startsWith('/openai/')) return { upstream: 'azure' };
  return { upstream: sentByAnthropicClient ? 'anthropic' : 'openai' };
}
