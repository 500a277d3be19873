import type { WireRoute } from '../wire-route.js';

/**
 * Bedrock Runtime's model operations: `/model/{modelId}/{operation}`, the model id URL-encoded
 * (an inference profile or model ARN carries `:` and `/`).
 */
const modelPath =
  /^\/model\/([^/]+)\/(converse|converse-stream|invoke|invoke-with-response-stream)$/;

/** Which Bedrock operation a route is: the Converse API, or InvokeModel with the model's own body. */
export type BedrockOperation = 'converse' | 'invoke';

/**
 * The route of a Bedrock Runtime request for `operation`: the model from the path, a stream of
 * event-stream frames for `converse-stream` and `invoke-with-response-stream`. Other Bedrock
 * Runtime paths (`/guardrail/…`, `/async-invoke`, `count-tokens`) are not captured. Pure.
 */
export function bedrockRoute(
  operation: BedrockOperation,
  method: string,
  path: string,
): WireRoute | undefined {
  if (method !== 'POST') return undefined;
  const match = modelPath.exec(path);
  const name = match?.[2];
  if (match?.[1] === undefined || name === undefined) return undefined;
  if (!name.startsWith(operation)) return undefined;
  return {
    upstream: 'bedrock',
    path,
    model: decodeSegment(match[1]),
    ...(name.endsWith('-stream') ? { stream: 'event-stream' as const } : {}),
  };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
