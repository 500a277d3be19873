import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import type { ResponseEnding } from '../providers/provider-adapter.js';
import { AgentDisconnected, type ForwardRequest, type UpstreamOutcome } from './forward-upstream.js';

/**
 * Sends one request upstream and collects the whole answer instead of streaming it to the agent:
 * for the tool loop, which must see a model turn entire before it knows whether the agent may
 * see it. The agent's disconnect still tears the upstream request down at once.
 */
export function collectUpstream(dispatcher: Dispatcher, request: Omit<ForwardRequest, 'capture'>, agent: ServerResponse): Promise<UpstreamOutcome> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const chunkTimes: number[] = [];
    let status: number | undefined;
    let headers: IncomingHttpHeaders | undefined;
    let firstByteMs: number | undefined;
    let controller: Dispatcher.DispatchController | undefined;
    let agentGone = false;
    let settled = false;
    const settle = (ending: ResponseEnding, error: Error | undefined): void => {
      if (settled) return;
      settled = true;
      agent.off('close', onAgentClose);
      resolve({ status, headers, chunks, chunkTimes, firstByteMs, totalMs: performance.now() - request.startedPerf, ending, error, errorMessage: error?.message });
    };
    const onAgentClose = (): void => {
      if (agent.writableFinished || settled) return;
      agentGone = true;
      controller?.abort(new AgentDisconnected());
    };
    agent.on('close', onAgentClose);
    dispatcher.dispatch(
      { method: request.method as Dispatcher.HttpMethod, path: request.path, headers: request.headers, body: request.body },
      {
        onRequestStart(requestController) {
          controller = requestController;
          if (agentGone) requestController.abort(new AgentDisconnected());
        },
        onResponseStart(_controller, statusCode, responseHeaders) {
          status = statusCode;
          headers = responseHeaders;
        },
        onResponseData(_controller, chunk) {
          const now = performance.now() - request.startedPerf;
          firstByteMs ??= now;
          chunks.push(chunk);
          chunkTimes.push(now);
        },
        onResponseEnd() {
          settle('finished', undefined);
        },
        onResponseError(_controller, error) {
          settle(agentGone || error instanceof AgentDisconnected ? 'client-aborted' : 'upstream-failed', error);
        },
      },
    );
  });
}
