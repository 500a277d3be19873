import type { RouteQuery, WireRoute } from '../wire-route.js';

/** Gemini API: `/{v1,v1beta,v1alpha}/models/{model}:{method}`. */
const geminiPath =
  /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;
/**
 * Vertex AI: `/{v1,v1beta1}/projects/{project}/locations/{location}/publishers/google/models/{model}:{method}`,
 * and express mode (an API key, no project) `/{v1,v1beta1}/publishers/google/models/{model}:{method}`,
 * served by the global endpoint.
 */
const vertexPath =
  /^\/v1(?:beta1)?\/(?:projects\/[^/]+\/locations\/([^/]+)\/)?publishers\/google\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/**
 * The route of a Gemini request: the model is in the path, and so is the form of the answer —
 * `:streamGenerateContent?alt=sse` streams events, `:streamGenerateContent` without it one JSON
 * array, `:generateContent` one JSON object. Other methods (`:countTokens`…) pass through. Pure.
 */
export function geminiRoute(
  method: string,
  path: string,
  query: RouteQuery,
): WireRoute | undefined {
  if (method !== 'POST') return undefined;
  const gemini = geminiPath.exec(path);
  const vertex = gemini ? undefined : vertexPath.exec(path);
  const model = gemini?.[1] ?? vertex?.[2];
  const operation = gemini?.[2] ?? vertex?.[3];
  if (model === undefined || operation === undefined) return undefined;
  const stream =
    operation === 'streamGenerateContent'
      ? query.get('alt') === 'sse'
        ? ('sse' as const)
        : ('json-array' as const)
      : undefined;
  return {
    upstream: gemini ? 'gemini' : 'vertex',
    path,
    model: decodeSegment(model),
    ...(stream !== undefined ? { stream } : {}),
    ...(vertex ? { location: decodeSegment(vertex[1] ?? 'global') } : {}),
  };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
