import type { RouteQuery, WireRoute } from './wire-route.js';

/** `{prefix}/deployments/{deployment}/<operation>`: Azure OpenAI's deployment routes. */
const deploymentRoute = /^\/(openai|v1)\/deployments\/([^/]+)\/(.+)$/;

/**
 * The route of an OpenAI wire request whose path ends in `operation` (`chat/completions`,
 * `responses`). Azure OpenAI goes to the `azure` upstream, stored under its own path:
 * - `/openai/deployments/{deployment}/…` (the deployment stands for the model), `/openai/v1/…`
 *   (`@ai-sdk/azure`) and `/openai/…` (openai's `AzureOpenAI` for Responses);
 * - `/v1/deployments/{deployment}/…` and `/v1/…?api-version=…`: `AzureOpenAI` reads
 *   `OPENAI_BASE_URL` before its endpoint, so under `calltape record -- cmd` it sends these;
 *   stored and forwarded as the `/openai/…` paths they stand for (OpenAI itself sends no
 *   `api-version`).
 * Any other path ending in `operation` goes to `upstream`, as before Azure had routes. Pure.
 */
export function openAiRoute(
  method: string,
  path: string,
  query: RouteQuery,
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
  if (path === `/v1/${operation}` && query.has('api-version'))
    return { upstream: 'azure', path: `/openai/${operation}` };
  return { upstream: 'openai', path };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
