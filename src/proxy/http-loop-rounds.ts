import type { CassetteReader } from '../cassette/sqlite/cassette-reader.js';
import type { Config } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import type { Mock } from '../mocks/mock-types.js';
import type { RoundOutcome } from '../mocks/tool-loop.js';
import type { ToolLoopWire } from '../providers/provider-adapter.js';
import type { JsonValue } from '../trace/trace.js';
import { loopMocks, type CapturePipeline, type FinishedRound } from './capture-pipeline.js';
import type { HttpRound } from './captured-route.js';
import { classifyUpstreamFailure } from './classify-upstream-failure.js';
import { collectUpstream } from './collect-upstream.js';
import { ResponseTooLarge } from './forward-upstream.js';
import { heldAnswerTooLarge } from './guard/capture-budget.js';
import { upstreamRequestHeaders } from './headers.js';
import { signedHeaders } from './signed-headers.js';
import type { MockedRouteContext, RoundSource } from './mocked-route.js';
import type { Logger } from '../logger.js';
import type { MockState } from './mock-state.js';
import { upstreamOfRecording } from './replay-lookup.js';
import { timeOrderedId } from '../cassette/time-ordered-id.js';
import type { Upstreams } from './upstreams.js';

export interface LoopRoundsOptions {
  readonly config: Config;
  readonly logger: Logger;
  readonly pipeline: CapturePipeline;
  readonly upstreams: Pick<Upstreams, 'for'>;
  readonly round: HttpRound & { readonly adapter: { readonly toolLoop: ToolLoopWire } };
  readonly mocks: ReadonlyMap<string, Mock>;
  readonly reader: CassetteReader | undefined;
  readonly mockState: MockState;
}

/**
 * The tool loop's context for one HTTP request: each round the loop asks for is decided by the
 * pipeline (a recording, a miss, or the upstream, collected whole) and finished through it with
 * what the loop made of it.
 */
export function loopRounds(options: LoopRoundsOptions): MockedRouteContext {
  const { config, pipeline, round, mockState } = options;
  let index = 0;
  return {
    adapter: round.adapter,
    route: round.route,
    response: round.response,
    agentBody: JSON.parse(round.body.toString('utf8')) as JsonValue,
    agentBytes: round.agentBody,
    mocks: options.mocks,
    history: mockState.history,
    counters: mockState.counters,
    session: round.where.sessionId ?? '',
    maxHiddenRounds: config.mocks.maxHiddenRounds,
    strictTools: config.mocks.strictTools,
    allowTools: new Set(config.mocks.allowTools),
    maxDecodedBytes: config.limits.maxDecodedBytes,
    refused: (error) => pipeline.refused(error),
    answer: (body) => answerRound(options, body, index++),
  };
}

async function answerRound(
  options: LoopRoundsOptions,
  body: Buffer,
  index: number,
): ReturnType<MockedRouteContext['answer']> {
  const { pipeline, round } = options;
  // Rounds after the first are round trips of their own; the first keeps what the agent sent when hidden history went in.
  const finished: FinishedRound = {
    adapter: round.adapter,
    where: round.where,
    request: {
      id: index > 0 ? timeOrderedId() : round.id,
      method: round.method,
      headers: round.request.headers,
      body,
      startedAt: Date.now(),
    },
    upstream: undefined,
    match: undefined,
    source: 'upstream',
    model: round.model,
  };
  const agentRequest = index === 0 && !body.equals(round.agentBody) ? round.agentBody : undefined;
  const finish = (source: RoundSource, outcome: RoundOutcome, base: FinishedRound): void =>
    pipeline.finishRound({
      ...base,
      mocks: loopMocks(outcome, agentRequest, round.adapter),
      ...(source.kind === 'recording' ? { source: 'recording' } : {}),
    });
  const decision = pipeline.decide(
    {
      adapter: round.adapter,
      where: round.where,
      method: round.method,
      headers: round.request.headers,
      text: body.toString('utf8'),
    },
    options.reader,
  );
  if (decision.kind === 'miss') throw decision.error;
  if (decision.kind === 'hit') {
    const source: RoundSource = { kind: 'recording', recording: decision.recording };
    return {
      source,
      record: (outcome) =>
        finish(source, outcome, { ...finished, upstream: upstreamOfRecording(decision.recording) }),
    };
  }
  const upstream = options.upstreams.for(round.route);
  // Stored with no answer and thrown: the agent gets the error.
  const unsent = (error: CalltapeError): never => {
    pipeline.finishRound({
      ...finished,
      match: decision.match,
      proxyError: error,
      mocks: loopMocks({ mocked: [], hidden: false }, agentRequest, round.adapter),
    });
    options.logger.error(error.message);
    throw error;
  };
  if (upstream instanceof CalltapeError) return unsent(upstream);
  const { config } = options;
  // Signed for the upstream's host and this round's body (Bedrock): the agent's signature was for calltape's.
  const headers = await signedHeaders(
    upstream,
    { method: round.method, where: round.where, body },
    { ...upstreamRequestHeaders(round.request.headers), 'accept-encoding': 'identity' },
  );
  if (headers instanceof CalltapeError) return unsent(headers);
  const outcome = await collectUpstream(
    upstream.pool,
    {
      method: round.method,
      path: upstream.pathPrefix + round.where.path,
      headers,
      body,
      startedPerf: performance.now(),
      maxCaptureBytes: config.limits.maxResponseBytes,
    },
    round.response,
  );
  const { error: upstreamError, ...captured } = outcome;
  const live = { ...finished, upstream: captured, match: decision.match };
  if (outcome.status === undefined || upstreamError instanceof ResponseTooLarge) {
    const failure =
      upstreamError instanceof ResponseTooLarge
        ? heldAnswerTooLarge('limits.maxResponseBytes', upstreamError.maxBytes)
        : classifyUpstreamFailure(upstreamError ?? new Error('no answer'), upstream.url, {
            connectMs: config.timeouts.upstreamConnectMs,
            headersMs: config.timeouts.upstreamHeadersMs,
          });
    // The part captured is kept, marked truncated with the reason (the agent got none of it).
    const upstreamPart =
      upstreamError instanceof ResponseTooLarge
        ? { ...captured, truncated: failure.message }
        : captured;
    pipeline.finishRound({
      ...live,
      upstream: upstreamPart,
      proxyError: failure,
      mocks: loopMocks({ mocked: [], hidden: false }, agentRequest, round.adapter),
    });
    options.logger.error(failure.message);
    throw failure;
  }
  const source: RoundSource = { kind: 'upstream', outcome };
  return { source, record: (result) => finish(source, result, live) };
}
