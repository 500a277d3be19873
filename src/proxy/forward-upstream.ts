import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import type { CapturedUpstream } from '../cassette/captured-round.js';
import type { ResponseEnding } from '../providers/provider-adapter.js';
import type { OutgoingHeaders } from './headers.js';
import { agentResponseHeaders } from './headers.js';
import { CaptureBudget } from './guard/capture-budget.js';

/** The captured upstream answer, plus the failure itself for the caller's error handling. */
export interface UpstreamOutcome extends CapturedUpstream {
  readonly error: Error | undefined;
}

export interface ForwardRequest {
  readonly method: string;
  /** Full upstream path (prefix + agent path + query). */
  readonly path: string;
  readonly headers: OutgoingHeaders;
  readonly body: Buffer;
  /** `performance.now()` when the agent's request arrived. */
  readonly startedPerf: number;
  /** Keep the body chunks for recording. */
  readonly capture: boolean;
  /** Most body bytes kept when capturing (`limits.maxResponseBytes`); unlimited when absent. Collecting, past it the upstream request is torn down (`ResponseTooLarge`). */
  readonly maxCaptureBytes?: number;
}

/** What the sinks keep of a forwarded answer: the outcome without the failure itself (a literal: an object rest cost µs a request). */
export function capturedUpstream(outcome: UpstreamOutcome): CapturedUpstream {
  return {
    status: outcome.status,
    headers: outcome.headers,
    chunks: outcome.chunks,
    chunkTimes: outcome.chunkTimes,
    firstByteMs: outcome.firstByteMs,
    totalMs: outcome.totalMs,
    ending: outcome.ending,
    errorMessage: outcome.errorMessage,
    truncated: outcome.truncated,
  };
}

/** One forwarded round trip: where it goes, the agent it answers, and what to do when it ends. */
export interface ForwardOptions {
  readonly dispatcher: Dispatcher;
  readonly request: ForwardRequest;
  /** The agent's response: written to as chunks arrive (`stream`), or only watched for a disconnect (`collect`: the tool loop must see a turn entire first). */
  readonly agent: ServerResponse;
  readonly delivery: 'stream' | 'collect';
  /** Streaming only: answers the agent when the upstream fails before any response (the caller knows the provider's error shape). */
  onFailureBeforeHeaders?(error: Error): void;
  /** Sees the answer as it passes, for parsing beside the forwarding: its head, then each chunk once written to the agent. */
  readonly observer?: ResponseObserver | undefined;
  /** Receives the outcome once the round trip ended, however it ended. */
  onDone(outcome: UpstreamOutcome): void;
}

/** Reads a forwarded answer beside the agent (never in its way: it runs after each write). */
export interface ResponseObserver {
  start(status: number, headers: IncomingHttpHeaders): void;
  data(chunk: Buffer): void;
}

/** Raised into undici when the agent goes away, so the upstream request is torn down at once. */
export class AgentDisconnected extends Error {
  override readonly name = 'AgentDisconnected';
  constructor() {
    super('the agent disconnected');
  }
}

/**
 * Raised into undici when a collected answer outgrows `maxCaptureBytes`: nothing has reached the
 * agent, so holding on would cost memory without bound (an endless stream), and cutting capture
 * short would hand the tool loop half a turn.
 */
export class ResponseTooLarge extends Error {
  override readonly name = 'ResponseTooLarge';
  constructor(readonly maxBytes: number) {
    super(`the upstream's answer exceeds ${maxBytes} bytes (limits.maxResponseBytes)`);
  }
}

/**
 * Forwards one request upstream and streams the answer to the agent. Each upstream chunk is
 * written to the agent as it arrives; when the agent's socket is full the upstream read is
 * paused until it drains, so nothing accumulates here. Chunks are only referenced for capture,
 * never copied or parsed on this path.
 *
 * In `collect` delivery nothing is written to the agent; the caller answers it from the outcome.
 */
export function forwardUpstream(options: ForwardOptions): void {
  const { dispatcher, request, agent: response } = options;
  const chunks: Buffer[] = [];
  const chunkTimes: number[] = [];
  let status: number | undefined;
  let headers: IncomingHttpHeaders | undefined;
  let firstByteMs: number | undefined;
  let controller: Dispatcher.DispatchController | undefined;
  let agentGone = false;
  let settled = false;
  const deliver = options.delivery === 'stream';
  const budget = new CaptureBudget(request.maxCaptureBytes ?? Number.POSITIVE_INFINITY);

  const settle = (ending: ResponseEnding, error: Error | undefined): void => {
    if (settled) return;
    settled = true;
    response.off('close', onAgentClose);
    options.onDone({
      status,
      headers,
      chunks,
      chunkTimes,
      firstByteMs,
      totalMs: performance.now() - request.startedPerf,
      ending,
      error,
      errorMessage: error?.message,
      truncated: budget.truncated,
    });
  };

  const onAgentClose = (): void => {
    if (response.writableFinished || settled) return;
    agentGone = true;
    controller?.abort(new AgentDisconnected());
  };
  response.on('close', onAgentClose);

  const handler: Dispatcher.DispatchHandler = {
    onRequestStart(requestController) {
      controller = requestController;
      if (agentGone) requestController.abort(new AgentDisconnected());
    },
    onResponseStart(_controller, statusCode, responseHeaders) {
      status = statusCode;
      headers = responseHeaders;
      options.observer?.start(statusCode, responseHeaders);
      if (!deliver) return;
      response.writeHead(statusCode, agentResponseHeaders(responseHeaders));
      // A stream's headers go out now (the agent's SDK resolves on them); a whole body's go out with it, in one write.
      if (String(responseHeaders['content-type']).includes('text/event-stream'))
        response.flushHeaders();
    },
    onResponseData(dataController, chunk) {
      const now = performance.now() - request.startedPerf;
      firstByteMs ??= now;
      if (request.capture && budget.take(chunk.length)) {
        chunks.push(chunk);
        chunkTimes.push(now);
      } else if (!deliver) {
        dataController.abort(new ResponseTooLarge(request.maxCaptureBytes ?? 0));
        return;
      }
      if (deliver && !response.write(chunk)) {
        dataController.pause();
        response.once('drain', () => dataController.resume());
      }
      options.observer?.data(chunk);
    },
    onResponseEnd() {
      if (deliver) response.end();
      settle('finished', undefined);
    },
    onResponseError(_controller, error) {
      if (agentGone || error instanceof AgentDisconnected) {
        settle('client-aborted', error);
        return;
      }
      // Collecting, nothing reached the agent yet: the caller answers it from the outcome.
      if (deliver) {
        if (status === undefined) options.onFailureBeforeHeaders?.(error);
        // After headers, a clean end would make a broken stream look complete: cut the agent's connection too.
        else response.destroy(error);
      }
      settle('upstream-failed', error);
    },
  };

  dispatcher.dispatch(
    {
      method: request.method as Dispatcher.HttpMethod,
      path: request.path,
      headers: request.headers,
      body: request.body,
    },
    handler,
  );
}
