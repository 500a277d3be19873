import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CapturedRound, MockedCall } from '../cassette/captured-round.js';
import type { MatchKey } from '../cassette/match-key.js';
import { credentialValues, type Redactor } from '../cassette/redact.js';
import type { CassetteReader, Recording } from '../cassette/sqlite/cassette-reader.js';
import type { CassetteContext, CassetteRegistry } from './cassette-registry.js';
import type { Recorder } from '../cassette/worker-recorder.js';
import type { Config } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import type { ProviderAdapter } from '../providers/provider-adapter.js';
import { classifyUpstreamFailure } from './classify-upstream-failure.js';
import { forwardUpstream } from './forward-upstream.js';
import { collectUpstream } from './collect-upstream.js';
import { upstreamRequestHeaders } from './headers.js';
import { ReplayKeys } from './replay-keys.js';
import { answerWithMocks, selectMocks, type MockState } from './mocked-route.js';
import { countMiss, describeMiss, findRecording, formatAge, maxReasons, parseMaxAge, upstreamOfRecording, usableRecording, withoutSessionHeader, type ReplayStats } from './replay-lookup.js';
import { overrideToolResults } from '../mocks/override-results.js';
import type { JsonValue } from '../trace/trace.js';
import { buildExchange } from '../cassette/build-exchange.js';
import type { Logger } from './logger.js';
import { readRequestBody } from './read-request-body.js';
import { inRequestedForm, replayRecording, timingFactor } from './replay-recording.js';
import { sendError } from './send-error.js';
import { timeOrderedId } from './time-ordered-id.js';
import type { Upstream } from './upstream.js';
import { requestedModel, type LoopRecord, type ProxyObserver, type Where } from './route-types.js';
import type { LiveTap } from '../live/live-service.js';

export interface CapturedRouteDeps {
  readonly config: Config;
  readonly logger: Logger;
  /** The upstream each wire goes to (`ProviderAdapter.upstream`). */
  readonly upstreams: { readonly openai: Upstream; readonly anthropic: Upstream };
  /** Redacts bodies and paths the same way the store does, so keys are computed from what is stored. */
  readonly redactor: Redactor;
  readonly recorder: Recorder;
  readonly cassettes: CassetteRegistry;
  readonly stats: ReplayStats;
  /** Mock tools in force, when any are configured. */
  readonly mockState?: MockState | undefined;
  /** Sees every answered round trip as a parsed interaction (for `calltape test`), replays included. */
  readonly observer?: ProxyObserver | undefined;
  /** Metrics, the live feed and shadow scoring: told of every answered round trip. */
  readonly live?: LiveTap | undefined;
}

/**
 * Handles a route some adapter captures, in the configured mode: replay answers from the
 * cassette (a miss is an error in the provider's shape), auto replays hits and forwards misses,
 * record forwards everything; record and auto hand the round to the store worker afterwards.
 */
export function createCapturedRoute(deps: CapturedRouteDeps): (adapter: ProviderAdapter, request: IncomingMessage, response: ServerResponse, where: Where) => Promise<void> {
  const { config, logger, upstreams, redactor, recorder, cassettes, stats, mockState, observer, live } = deps;
  // Shadow scoring parses what came back, so chunks are kept in every mode while it is on.
  const tapping = live?.capturing === true;
  const keys = new ReplayKeys(config.match, redactor);
  const allowTools = new Set(config.mocks.allowTools);
  const factor = timingFactor(config.replayTiming);
  const maxAgeMs = parseMaxAge(config.expiry.maxAge);

  return async (adapter, request, response, where) => {
    const upstream = upstreams[adapter.upstream];
    const diffing = where.mode === 'diff';
    const replaying = where.mode === 'replay' || where.mode === 'auto' || diffing;
    const capture = where.mode === 'record' || where.mode === 'auto';
    const startedAt = Date.now();
    const startedPerf = performance.now();
    const method = request.method ?? 'POST';
    const read = await readRequestBody(request, config.limits.maxBodyBytes);
    if (read.kind === 'aborted') return;
    if (read.kind === 'too-large') {
      logger.info(`${method} ${redactor.path(where.path)}: request body over ${config.limits.maxBodyBytes} bytes rejected (413)`);
      sendError(response, adapter, new CalltapeError('BODY_TOO_LARGE', `calltape: the request body exceeds the limit of ${config.limits.maxBodyBytes} bytes (limits.maxBodyBytes)`), true);
      return;
    }
    let cassette: CassetteContext;
    try {
      cassette = await cassettes.get(where.cassette, where.mode);
    } catch (error) {
      const failure = error instanceof CalltapeError ? error : new CalltapeError('STORE_IO', `calltape: ${where.cassette}: ${(error as Error).message}`);
      logger.error(failure.message);
      sendError(response, adapter, failure);
      return;
    }
    const reader = cassette.reader;
    // What goes upstream: the agent's bytes, unless override mode replaces mocked tools' results.
    let body = read.body;
    let text = body.toString('utf8');
    let overridden: readonly MockedCall[] | undefined;
    let model: string | undefined;
    const id = timeOrderedId();
    const matchKey = (bodyText = text): ReturnType<ReplayKeys['keyFor']> => keys.keyFor(method, where.path, request.headers, bodyText, where.cassette, where.sessionId);
    const roundOf = (roundId: string, match: MatchKey | undefined, upstreamOutcome: CapturedRound['upstream'], proxyError: CalltapeError | undefined, loop?: LoopRecord): CapturedRound => {
      const headers = withoutSessionHeader(request.headers);
      return {
        adapterId: adapter.id,
        request: { id: roundId, sessionId: where.sessionId ?? roundId, method, path: where.path, headers, body: loop?.body ?? body, startedAt: loop?.startedAt ?? startedAt },
        upstream: upstreamOutcome,
        match,
        secrets: credentialValues(headers, where.path),
        proxyError: proxyError && { status: proxyError.status, message: proxyError.message },
        ...(loop ? { mocked: loop.mocked, hidden: loop.hidden } : overridden ? { mocked: overridden, agentView: { request: read.body } } : {}),
        ...(loop && (loop.agentRequest || loop.agentResponse !== undefined) ? { agentView: { ...(loop.agentRequest ? { request: loop.agentRequest } : {}), ...(loop.agentResponse !== undefined ? { response: Buffer.from(loop.agentResponse) } : {}) } } : {}),
      };
    };
    /**
     * Tells whoever needs a finished round: the store (live rounds in record and auto modes), the
     * observer, and the live side (metrics, feed, shadow scoring) — which gets only the round's
     * outline when nothing keeps its bodies.
     */
    const report = (match: MatchKey | undefined, upstreamOutcome: CapturedRound['upstream'], proxyError: CalltapeError | undefined, loop: LoopRecord | undefined, fromUpstream: boolean): void => {
      // Tool-loop rounds after the first are round trips of their own, with their own ids and bodies.
      const roundId = loop && loop.round > 0 ? timeOrderedId() : id;
      const store = fromUpstream && capture;
      if (!store && !observer && !tapping) {
        live?.answered({ adapterId: adapter.id, request: { id: roundId, sessionId: where.sessionId ?? roundId, startedAt: loop?.startedAt ?? startedAt }, upstream: upstreamOutcome, proxyError: proxyError && { status: proxyError.status, message: proxyError.message } }, model);
        return;
      }
      const round = roundOf(roundId, match, upstreamOutcome, proxyError, loop);
      if (store) {
        stats.recorded++;
        recorder.record(where.cassette, round);
      }
      if (observer) {
        try {
          observer.interaction(buildExchange(adapter, redactor, round).interaction);
        } catch (error) {
          logger.error(`calltape: cannot trace ${method} ${redactor.path(where.path)}: ${(error as Error).message}`);
        }
      }
      live?.round(round, model);
    };
    const record = (match: MatchKey | undefined, upstreamOutcome: CapturedRound['upstream'], proxyError: CalltapeError | undefined, loop?: LoopRecord): void => report(match, upstreamOutcome, proxyError, loop, true);
    const observeReplay = (recording: Recording, loop?: LoopRecord): void => report(undefined, upstreamOfRecording(recording), undefined, loop, false);
    const missed = (message: string): void => observer?.miss(where.sessionId, message);

    /** Serves a replay hit or answers a replay miss; false when the request should go upstream (auto mode). */
    const answerFromCassette = (keyed: ReturnType<typeof matchKey>, found: Recording | undefined, reader: CassetteReader): boolean => {
      const age = found ? Date.now() - found.startedAt : 0;
      const expired = found !== undefined && maxAgeMs !== undefined && age > maxAgeMs;
      if (expired && config.expiry.onExpired === 'warn') {
        stats.expired++;
        logger.info(`${where.cassette}: recording ${found.id} is ${formatAge(age)} old (expiry.maxAge ${config.expiry.maxAge ?? ''}); re-record it`);
      }
      const recording = expired && config.expiry.onExpired !== 'warn' ? undefined : found;
      if (recording) {
        stats.hits++;
        stats.served.add(recording.id);
        logger.debug(() => `${method} ${redactor.path(where.path)} → replayed ${recording.id}`);
        replayRecording(config.match.streamAgnostic ? inRequestedForm(recording, adapter, text) : recording, response, factor);
        observeReplay(recording);
        return true;
      }
      let miss: CalltapeError | undefined;
      if (expired && (where.mode === 'replay' || config.expiry.onExpired === 'error')) {
        miss = new CalltapeError('CASSETTE_MISS', `calltape: cassette ${where.cassette}: the recording for ${method} ${redactor.path(where.path)} is ${formatAge(age)} old, past expiry.maxAge ${config.expiry.maxAge ?? ''}; re-record it (calltape auto with expiry.onExpired "rerecord" does).`);
      } else if (where.mode === 'replay') {
        miss = describeMiss(reader, keyed, where.cassette, method, redactor.path(where.path));
      }
      if (!miss) return false;
      countMiss(stats, where.cassette, miss.message);
      missed(miss.message);
      logger.error(miss.message);
      sendError(response, adapter, miss);
      return true;
    };

    try {
      // Parsed only to reject bad JSON before it costs an upstream call (and to label metrics by model); summaries are built off this path.
      model = requestedModel(JSON.parse(text));
    } catch (error) {
      const invalid = new CalltapeError('INVALID_JSON', `calltape: the request body is not valid JSON (${(error as Error).message})`);
      sendError(response, adapter, invalid);
      if (where.mode === 'record') record(undefined, undefined, invalid);
      return;
    }

    const mocks = mockState ? selectMocks(mockState, request.headers) : undefined;
    if (mocks instanceof CalltapeError) {
      sendError(response, adapter, mocks);
      return;
    }
    if (mocks && mocks.size > 0 && !adapter.toolLoop) {
      // Passing the request through would let the agent run the very tools the mocks stand for.
      sendError(response, adapter, new CalltapeError('INVALID_REQUEST', `calltape: mock tools are not answered on ${adapter.id} yet; run this agent without mocks (x-calltape-mocks: none), or through /v1/chat/completions or /v1/messages`));
      return;
    }
    if (mocks && mockState && adapter.toolLoop && config.mocks.mode === 'override' && mocks.size > 0) {
      const replaced = await overrideToolResults(JSON.parse(text) as JsonValue, adapter.toolLoop, mocks, mockState.answered, mockState.counters, where.sessionId ?? '');
      if (replaced) {
        body = Buffer.from(JSON.stringify(replaced.body));
        text = body.toString('utf8');
        overridden = replaced.mocked;
      }
    } else if (mocks && mockState && adapter.toolLoop && (mocks.size > 0 || config.mocks.strictTools)) {
      let round = 0;
      await answerWithMocks({
        adapter: { ...adapter, toolLoop: adapter.toolLoop },
        response,
        agentBody: JSON.parse(text) as JsonValue,
        agentBytes: read.body,
        mocks,
        history: mockState.history,
        counters: mockState.counters,
        session: where.sessionId ?? '',
        maxHiddenRounds: config.mocks.maxHiddenRounds,
        strictTools: config.mocks.strictTools,
        allowTools,
        refused: (error) => {
          stats.refused++;
          logger.error(error.message);
        },
        answer: async (body) => {
          // The first round answers the agent's own request: when hidden history went in, keep what the agent sent.
          const index = round++;
          const loop = { round: index, body, startedAt: Date.now(), agentRequest: index === 0 && !body.equals(read.body) ? read.body : undefined };
          let roundMatch: MatchKey | undefined;
          if (replaying && reader && !diffing) {
            const keyed = matchKey(body.toString('utf8'));
            roundMatch = keyed.match;
            const found = usableRecording(findRecording(reader, keyed.match, config.match.onExhausted), maxAgeMs, config.expiry.onExpired, stats);
            if (found) {
              stats.hits++;
              stats.served.add(found.id);
              logger.debug(() => `${method} ${redactor.path(where.path)} → replayed ${found.id} (tool loop round ${loop.round + 1})`);
              return { source: { kind: 'recording', recording: found }, record: (mocked, hidden, agentResponse) => observeReplay(found, { ...loop, mocked, hidden, agentResponse }) };
            }
            if (where.mode === 'replay') {
              const miss = describeMiss(reader, keyed, where.cassette, method, redactor.path(where.path));
              countMiss(stats, where.cassette, miss.message);
              missed(miss.message);
              logger.error(miss.message);
              throw miss;
            }
          }
          const outcome = await collectUpstream(upstream.pool, { method, path: upstream.pathPrefix + where.path, headers: { ...upstreamRequestHeaders(request.headers), 'accept-encoding': 'identity' }, body, startedPerf: performance.now() }, response);
          const { error: upstreamError, ...captured } = outcome;
          if (outcome.status === undefined) {
            const failure = classifyUpstreamFailure(upstreamError ?? new Error('no answer'), upstream.url, { connectMs: config.timeouts.upstreamConnectMs, headersMs: config.timeouts.upstreamHeadersMs });
            record(roundMatch, captured, failure, { ...loop, mocked: [], hidden: false });
            logger.error(failure.message);
            throw failure;
          }
          return { source: { kind: 'upstream', outcome }, record: (mocked, hidden, agentResponse) => (diffing ? undefined : record(roundMatch, captured, undefined, { ...loop, mocked, hidden, agentResponse })) };
        },
      });
      return;
    }

    let match: MatchKey | undefined;
    /** In diff mode: the recording the live answer is compared with (null: none matched). */
    let compareWith: string | null | undefined;
    if (replaying && reader) {
      const keyed = matchKey();
      match = keyed.match;
      const found = findRecording(reader, keyed.match, config.match.onExhausted);
      if (diffing) compareWith = found?.id ?? null;
      else if (answerFromCassette(keyed, found, reader)) return;
    }

    let failure: CalltapeError | undefined;
    forwardUpstream(
      upstream.pool,
      // calltape-hardening: capture is bounded by limits.maxResponseBytes (the agent still gets every byte).
      { method, path: upstream.pathPrefix + where.path, headers: upstreamRequestHeaders(request.headers), body, startedPerf, capture: capture || diffing || tapping, maxCaptureBytes: config.limits.maxResponseBytes },
      response,
      (error) => {
        failure = classifyUpstreamFailure(error, upstream.url, { connectMs: config.timeouts.upstreamConnectMs, headersMs: config.timeouts.upstreamHeadersMs });
        logger.error(failure.message);
        sendError(response, adapter, failure);
      },
      (outcome) => {
        logger.debug(() => `${method} ${redactor.path(where.path)} → ${outcome.status ?? failure?.status ?? '-'} ${outcome.ending} ${outcome.totalMs.toFixed(1)} ms`);
        const { error: _error, ...captured } = outcome;
        if (!diffing) record(match, captured, failure);
        else if (compareWith === null && stats.diffs.length < maxReasons) stats.diffs.push({ request: `${method} ${redactor.path(where.path)}`, recordingId: undefined, lines: ['no recording matches this request'] });
        else if (compareWith) recorder.diff(where.cassette, compareWith, roundOf(id, match, captured, failure));
      },
    );
  };
}
