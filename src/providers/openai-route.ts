import type { WireRoute } from './wire-route.js';

/** `/openai/deployments/{deployment}/<operation>`: Azure OpenAI's deployment routes. */
const deploymentRoute = /^\/openai\/deployments\/([^/]+)\/(.+)$/;

/**
 * The route of an OpenAI wire request whose path ends in `operation` (`chat/completions`,
 * `responses`): Azure OpenAI's `/openai/deployments/{deployment}/…` (the deployment standing for
 * the model) and `/openai/v1/…` go to the `azure` upstream; any other path ending in it goes to
 * `upstream`, as before Azure had routes of its own. Pure.
 */
export function openAiRoute(
  method: string,
  path: string,
  operation: 'chat/completions' | 'responses',
): WireRoute | undefined {
  if (method !== 'POST' || !path.endsWith(`/${operation}`)) return undefined;
  if (path === `/openai/v1/${operation}`) return { upstream: 'azure', path };
  const deployment = deploymentRoute.exec(path);
  if (deployment?.[2] === operation)
    return { upstream: 'azure', path, model: decodeSegment(deployment[1] ?? '') };
  return { upstream: 'openai', path };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
