import type { WireRoute } from './wire-route.js';

/** `{prefix}/deployments/{deployment}/<operation>`: Azure OpenAI's deployment routes. */
const deploymentRoute = /^\/(openai|v1)\/deployments\/([^/]+)\/(.+)$/;

/**
 * The route of an OpenAI wire request whose path ends in `operation` (`chat/completions`,
 * `responses`). Azure OpenAI goes to the `azure` upstream, stored under its own path:
 * - `/openai/deployments/{deployment}/…` (the deployment stands for the model), `/openai/v1/…`
 *   (`@ai-sdk/azure`) and `/openai/…` (openai's `AzureOpenAI` for Responses);
 * - `/v1/deployments/{deployment}/…`: `AzureOpenAI` reads `OPENAI_BASE_URL` before its
 *   endpoint, so under `calltape record -- cmd` it sends this (OpenAI has no such route); stored
 *   and forwarded as the `/openai/…` path it stands for. (Its `/v1/responses?api-version=…`
 *   stays OpenAI's: OpenAI-compatible gateways take an `api-version` too.)
 * Any other path ending in `operation` goes to `upstream`, as before Azure had routes. Pure.
 */
export function openAiRoute(
  method: string,
  path: string,
  operation: 'chat/completions' | 'responses',
): WireRoute | undefined {
  if (method !== 'POST' || !path.endsWith(`/${operation}`)) return undefined;
  if (path === `/openai/v1/${operation}` || path === `/openai/${operation}`)
    return { upstream: 'azure', path };
  const deployment = deploymentRoute.exec(path);
  if (deployment?.[3] === operation) {
    const name = deployment[2] ?? '';
    return {
      upstream: 'azure',
      path: `/openai/deployments/${name}/${operation}`,
      model: decodeSegment(name),
    };
  }
  return { upstream: 'openai', path };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
