import type { ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import { forwardUpstream, type ForwardRequest, type UpstreamOutcome } from './forward-upstream.js';

/**
 * Sends one request upstream and collects the whole answer instead of streaming it to the agent:
 * for the tool loop, which must see a model turn entire before it knows whether the agent may
 * see it. The agent's disconnect still tears the upstream request down at once, and so does an
 * answer past `maxCaptureBytes` (the outcome's error is then `ResponseTooLarge`).
 */
export function collectUpstream(
  dispatcher: Dispatcher,
  request: Omit<ForwardRequest, 'capture'> & { readonly maxCaptureBytes: number },
  agent: ServerResponse,
): Promise<UpstreamOutcome> {
  return new Promise((resolve) =>
    forwardUpstream({
      dispatcher,
      request: { ...request, capture: true },
      agent,
      delivery: 'collect',
      onDone: resolve,
    }),
  );
}
