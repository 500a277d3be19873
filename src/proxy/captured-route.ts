import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MockedCall } from '../cassette/captured-round.js';
import type { Config } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import type { Mock } from '../mocks/mock-types.js';
import type { ResolvedWire } from '../providers/adapters.js';
import type { ProviderAdapter } from '../providers/provider-adapter.js';
import type { WireRoute } from '../providers/wire-route.js';
import type { CapturePipeline, FinishedRound, RoundDecision } from './capture-pipeline.js';
import type { CassetteRegistry } from './cassette-registry.js';
import { classifyUpstreamFailure } from './classify-upstream-failure.js';
import { capturedUpstream, forwardUpstream } from './forward-upstream.js';
import { upstreamRequestHeaders, type OutgoingHeaders } from './headers.js';
import { signedHeaders } from './signed-headers.js';
import type { Upstream } from './upstream.js';
import { loopRounds } from './http-loop-rounds.js';
import type { Logger } from '../logger.js';
import { answerWithMocks } from './mocked-route.js';
import type { MockState } from './mock-state.js';
import { mocksOfRequest, withOverriddenResults } from './round-mocks.js';
import { readRequestBody } from './read-request-body.js';
import { upstreamOfRecording } from './replay-lookup.js';
import { inRequestedForm, replayRecording, timingFactor } from './replay-recording.js';
import { requestedModel, type Where } from './route-types.js';
import { sendError } from './send-error.js';
import { timeOrderedId } from '../cassette/time-ordered-id.js';
import type { Upstreams } from './upstreams.js';

export interface CapturedRouteOptions {
  readonly config: Config;
  readonly logger: Logger;
  /** The upstream each route goes to (`WireRoute.upstream`). */
  readonly upstreams: Pick<Upstreams, 'for'>;
  readonly cassettes: CassetteRegistry;
  readonly pipeline: CapturePipeline;
  /** Mock tools in force, when any are configured. */
  readonly mockState?: MockState | undefined;
}

/** One captured HTTP request on its way through the pipeline. */
export interface HttpRound {
  readonly adapter: ProviderAdapter;
  /** What the path resolved to: the upstream, and the model or stream the path names. */
  readonly route: WireRoute;
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  readonly where: Where;
  readonly method: string;
  readonly id: string;
  readonly startedAt: number;
  readonly startedPerf: number;
  /** The agent's bytes. */
  readonly agentBody: Buffer;
  /** What goes upstream: the agent's bytes, unless override mode replaced mocked tools' results. */
  readonly body: Buffer;
  readonly model: string | undefined;
  /** Override mode: the results replaced. */
  readonly overridden?: readonly MockedCall[] | undefined;
}

/**
 * Handles a route some adapter captures, in the configured mode: the pipeline decides hit, miss or
 * forward; a hit is replayed, a miss answered in the provider's error shape, a forward streamed
 * from the upstream and then handed back to the pipeline. Under mock tools the round runs as the
 * tool loop instead (`mocked-route.ts`).
 */
export class CapturedRoute {
  private readonly factor: number;

  constructor(private readonly options: CapturedRouteOptions) {
    this.factor = timingFactor(options.config.replayTiming);
  }

  async handle(
    { adapter, route }: ResolvedWire,
    request: IncomingMessage,
    response: ServerResponse,
    where: Where,
  ): Promise<void> {
    const { config, logger } = this.options;
    const startedAt = Date.now();
    const startedPerf = performance.now();
    const method = request.method ?? 'POST';
    const read = await readRequestBody(request, config.limits.maxBodyBytes);
    if (read.kind === 'aborted') return;
    if (read.kind === 'too-large') {
      logger.info(
        `${method} ${this.options.pipeline.redactedPath(where.path)}: request body over ${config.limits.maxBodyBytes} bytes rejected (413)`,
      );
      sendError(
        response,
        adapter,
        new CalltapeError(
          'BODY_TOO_LARGE',
          `calltape: the request body exceeds the limit of ${config.limits.maxBodyBytes} bytes (limits.maxBodyBytes)`,
        ),
      );
      return;
    }
    const cassette =
      this.options.cassettes.ready(where.cassette, where.mode) ??
      (await this.options.cassettes.open(where.cassette, where.mode));
    if (cassette instanceof CalltapeError) return sendError(response, adapter, cassette);
    let model: string | undefined;
    let invalid: CalltapeError | undefined;
    try {
      // Parsed only to reject bad JSON before it costs an upstream call (and to label metrics by model); summaries are built off this path.
      // A read may have no body at all (`GET /api/tags`).
      const text = read.body.toString('utf8');
      model = route.read && text === '' ? undefined : requestedModel(JSON.parse(text));
    } catch (error) {
      invalid = new CalltapeError(
        'INVALID_JSON',
        `calltape: the request body is not valid JSON (${(error as Error).message})`,
      );
    }
    // One object literal per round: spreading a base into it cost a few µs a request (issue 21).
    const base: HttpRound = {
      adapter,
      route,
      request,
      response,
      where,
      method,
      id: timeOrderedId(),
      startedAt,
      startedPerf,
      agentBody: read.body,
      body: read.body,
      model,
    };
    if (invalid) {
      sendError(response, adapter, invalid);
      if (where.mode === 'record')
        this.options.pipeline.finishRound(this.finished(base, undefined, { proxyError: invalid }));
      return;
    }
    // A read has no tool calls to answer: it is never mocked.
    const mocks = route.read
      ? undefined
      : mocksOfRequest(this.options.mockState, base.adapter, request, response);
    if (mocks === false) return;
    const round = mocks
      ? await withOverriddenResults(this.options.config, this.options.mockState, base, mocks)
      : base;
    const wire = adapter.toolLoop;
    if (mocks && wire && this.options.mockState && this.loops(mocks)) {
      return answerWithMocks(
        loopRounds({
          ...this.options,
          round: { ...round, adapter: { ...adapter, toolLoop: wire } },
          mocks,
          reader: cassette.reader,
          mockState: this.options.mockState,
        }),
      );
    }
    const body = round.body;
    this.serve(
      round,
      this.options.pipeline.decide(
        {
          adapter,
          where,
          method,
          headers: request.headers,
          // Decoded only when a lookup keys it (not in record mode).
          get text() {
            return body.toString('utf8');
          },
        },
        cassette.reader,
      ),
    );
  }

  /** Whether the request runs as the tool loop (intercept mode, with mocks or strict tools in force). */
  private loops(mocks: ReadonlyMap<string, Mock>): boolean {
    const { config } = this.options;
    return config.mocks.mode !== 'override' && (mocks.size > 0 || config.mocks.strictTools);
  }

  private serve(round: HttpRound, decision: RoundDecision): void {
    const { adapter, response } = round;
    if (decision.kind === 'miss') return sendError(response, adapter, decision.error);
    if (decision.kind === 'forward') return this.forward(round, decision);
    const { recording } = decision;
    replayRecording(
      this.options.config.match.streamAgnostic
        ? inRequestedForm(recording, adapter, round.body.toString('utf8'), round.route)
        : recording,
      response,
      this.factor,
    );
    this.options.pipeline.finishRound(
      this.finished(round, upstreamOfRecording(recording), { source: 'recording' }),
    );
  }

  private forward(round: HttpRound, decision: Extract<RoundDecision, { kind: 'forward' }>): void {
    const { logger, pipeline } = this.options;
    const upstream = this.options.upstreams.for(round.route);
    if (upstream instanceof CalltapeError) {
      this.options.logger.error(upstream.message);
      sendError(round.response, round.adapter, upstream);
      this.options.pipeline.finishRound(
        this.finished(round, undefined, { match: decision.match, proxyError: upstream }),
      );
      return;
    }
    const headers = upstreamRequestHeaders(round.request.headers);
    if (!upstream.sign) return this.send(round, decision, upstream, headers);
    // Signed for the upstream's host: the agent's signature was for calltape's.
    void signedHeaders(upstream, round, headers).then((signed) => {
      if (!(signed instanceof CalltapeError)) return this.send(round, decision, upstream, signed);
      logger.error(signed.message);
      sendError(round.response, round.adapter, signed);
      pipeline.finishRound(
        this.finished(round, undefined, { match: decision.match, proxyError: signed }),
      );
    });
  }

  /** Sends the round upstream with `headers` and streams the answer to the agent. */
  private send(
    round: HttpRound,
    decision: Extract<RoundDecision, { kind: 'forward' }>,
    upstream: Upstream,
    headers: OutgoingHeaders,
  ): void {
    const { config, logger, pipeline } = this.options;
    let failure: CalltapeError | undefined;
    forwardUpstream({
      dispatcher: upstream.pool,
      request: {
        method: round.method,
        path: upstream.pathPrefix + round.where.path,
        headers,
        body: round.body,
        startedPerf: round.startedPerf,
        capture: round.where.mode !== 'passthrough' || pipeline.tapping,
        maxCaptureBytes: config.limits.maxResponseBytes,
      },
      agent: round.response,
      delivery: 'stream',
      onFailureBeforeHeaders: (error) => {
        failure = classifyUpstreamFailure(error, upstream.url, {
          connectMs: config.timeouts.upstreamConnectMs,
          headersMs: config.timeouts.upstreamHeadersMs,
        });
        logger.error(failure.message);
        sendError(round.response, round.adapter, failure);
      },
      onDone: (outcome) => {
        logger.debug(
          () =>
            `${round.method} ${pipeline.redactedPath(round.where.path)} → ${outcome.status ?? failure?.status ?? '-'} ${outcome.ending} ${outcome.totalMs.toFixed(1)} ms`,
        );
        pipeline.finishRound(
          this.finished(round, capturedUpstream(outcome), {
            match: decision.match,
            proxyError: failure,
            compareWith: decision.compareWith,
          }),
        );
      },
    });
  }

  /** The round as the pipeline's sinks take it, answered from the upstream unless `more` says otherwise. */
  private finished(
    round: HttpRound,
    upstream: FinishedRound['upstream'],
    more: Partial<Pick<FinishedRound, 'match' | 'proxyError' | 'source' | 'compareWith'>> = {},
  ): FinishedRound {
    return {
      adapter: round.adapter,
      where: round.where,
      request: {
        id: round.id,
        method: round.method,
        headers: round.request.headers,
        body: round.body,
        startedAt: round.startedAt,
      },
      upstream,
      match: more.match,
      proxyError: more.proxyError,
      source: more.source ?? 'upstream',
      model: round.model,
      compareWith: more.compareWith,
      mocks: round.overridden && {
        mocked: round.overridden,
        agentView: { request: round.agentBody },
      },
    };
  }
}
