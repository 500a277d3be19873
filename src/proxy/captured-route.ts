import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CapturedRound, MockedCall } from '../cassette/captured-round.js';
import { effectiveRules, keyOf, keyProfile, OrdinalCounter, parseBody, type MatchKey } from '../cassette/match-key.js';
import { credentialValues, type Redactor } from '../cassette/redact.js';
import type { CassetteReader, Recording } from '../cassette/sqlite/cassette-reader.js';
import type { CassetteContext, CassetteRegistry } from './cassette-registry.js';
import type { Recorder } from '../cassette/worker-recorder.js';
import type { Config, ProxyMode } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import type { ProviderAdapter, ResponseEnding } from '../providers/provider-adapter.js';
import { classifyUpstreamFailure } from './classify-upstream-failure.js';
import { forwardUpstream } from './forward-upstream.js';
import { collectUpstream } from './collect-upstream.js';
import { mocksHeader, sessionHeader, upstreamRequestHeaders } from './headers.js';
import { answerWithMocks } from './mocked-route.js';
import type { MockRegistry } from '../mocks/load-mocks.js';
import type { AnsweredCalls, HiddenHistory, MockCounters } from '../mocks/hidden-history.js';
import type { Mock, MockAnswer } from '../mocks/mock-types.js';
import { overrideToolResults } from '../mocks/override-results.js';
import type { Interaction, JsonValue } from '../trace/trace.js';
import { buildExchange } from '../cassette/build-exchange.js';
import type { Logger } from './logger.js';
import { readRequestBody } from './read-request-body.js';
import { inRequestedForm, replayRecording, timingFactor } from './replay-recording.js';
import { sendError } from './send-error.js';
import { timeOrderedId } from './time-ordered-id.js';
import type { Upstream } from './upstream.js';

/** What a replay run did, for the summary `calltape replay` prints. */
export interface ReplayStats {
  hits: number;
  misses: number;
  /** Interactions forwarded and recorded (record and auto modes). */
  recorded: number;
  /** Recording ids served at least once. */
  readonly served: Set<string>;
  /** One line per miss: what differed. */
  readonly missReasons: string[];
  /** Recordings served although older than `expiry.maxAge` (onExpired: warn). */
  expired: number;
  /** Misses per cassette file. */
  readonly missedIn: Map<string, number>;
  /** Diff mode: requests whose live tool calls differ from the recording (or that have none). */
  readonly diffs: { request: string; recordingId: string | undefined; lines: readonly string[] }[];
  /** Diff mode: live answers compared with a recording. */
  compared: number;
  /** Model turns refused under mocks.strictTools (a call to a tool neither mocked nor allowed). */
  refused: number;
}

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
}

/** In-process subscriber to what the proxy answers: parsed off the store's worker, so only runners that need it pay. */
export interface ProxyObserver {
  interaction(interaction: Interaction): void;
  /** A replay miss, with the session of the request that missed. */
  miss(sessionId: string | undefined, message: string): void;
}

/** The loaded mock sets and what the tool loop remembers between requests. */
export interface MockState {
  readonly registry: MockRegistry;
  /** Sets in force when a request names none. */
  readonly defaultSets: readonly string[];
  readonly history: HiddenHistory;
  readonly counters: MockCounters;
  /** Override mode: each mocked call's answer, so a result the agent sends again gets the same one. */
  readonly answered: AnsweredCalls<MockAnswer & { readonly set: string }>;
}

/** What the store keeps of a tool-loop round beside the exchange. */
interface LoopRecord {
  readonly round: number;
  readonly body: Buffer;
  readonly startedAt: number;
  readonly mocked: readonly MockedCall[];
  readonly hidden: boolean;
  /** What the agent sent (round 0, when hidden history was spliced in) and got (when calls were hidden from it). */
  readonly agentRequest?: Buffer | undefined;
  readonly agentResponse?: string | undefined;
}

/** The mocks a request runs with: the sets its `x-calltape-mocks` header names (`none` for none), else the default sets. */
export function selectMocks(state: MockState, headers: IncomingMessage['headers']): ReadonlyMap<string, Mock> | CalltapeError {
  const header = headers[mocksHeader];
  const named = (Array.isArray(header) ? header.join(',') : header)?.split(',').map((name) => name.trim()).filter(Boolean);
  try {
    return state.registry.select(named === undefined ? state.defaultSets : named.includes('none') ? [] : named);
  } catch (error) {
    return new CalltapeError('INVALID_REQUEST', `calltape: ${mocksHeader}: ${(error as Error).message}`);
  }
}

export interface Where {
  readonly sessionId: string | undefined;
  /** Agent path without the prefixes, query included. */
  readonly path: string;
  /** Cassette file and mode for this request. */
  readonly cassette: string;
  readonly mode: ProxyMode;
}

/**
 * Handles a route some adapter captures, in the configured mode: replay answers from the
 * cassette (a miss is an error in the provider's shape), auto replays hits and forwards misses,
 * record forwards everything; record and auto hand the round to the store worker afterwards.
 */
export function createCapturedRoute(deps: CapturedRouteDeps): (adapter: ProviderAdapter, request: IncomingMessage, response: ServerResponse, where: Where) => Promise<void> {
  const { config, logger, upstreams, redactor, recorder, cassettes, stats, mockState, observer } = deps;
  // One count per cassette: the Nth identical request is the Nth of its cassette and scope.
  const ordinals = new Map<string, OrdinalCounter>();
  const rules = effectiveRules(config.match);
  const profile = keyProfile(rules);
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
    const id = timeOrderedId();
    const matchKey = (bodyText = text): { match: MatchKey; canonical: ReturnType<typeof keyOf>['canonical'] } => {
      // Keys come from the redacted body and path, exactly what the store keeps and re-keys from.
      const keyed = keyOf(method, redactor.path(where.path), request.headers, parseBody(redactor.text(bodyText)), rules);
      const scope = where.sessionId ?? '';
      let counter = ordinals.get(where.cassette);
      if (!counter) ordinals.set(where.cassette, (counter = new OrdinalCounter()));
      return { match: { key: keyed.key, profile, canonical: keyed.text, ordinal: counter.next(scope, keyed.key), scope }, canonical: keyed.canonical };
    };
    const roundOf = (match: MatchKey | undefined, upstreamOutcome: CapturedRound['upstream'], proxyError: CalltapeError | undefined, loop?: LoopRecord): CapturedRound => {
      const headers = withoutSessionHeader(request.headers);
      // Tool-loop rounds after the first are round trips of their own, with their own ids and bodies.
      const roundId = loop && loop.round > 0 ? timeOrderedId() : id;
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
    /** Hands a finished round to the store (record and auto modes) and to the observer (every mode). */
    const record = (match: MatchKey | undefined, upstreamOutcome: CapturedRound['upstream'], proxyError: CalltapeError | undefined, loop?: LoopRecord): void => {
      if (!capture && !observer) return;
      const round = roundOf(match, upstreamOutcome, proxyError, loop);
      if (capture) {
        stats.recorded++;
        recorder.record(where.cassette, round);
      }
      observe(round);
    };
    const observe = (round: CapturedRound): void => {
      if (!observer) return;
      try {
        observer.interaction(buildExchange(adapter, redactor, round).interaction);
      } catch (error) {
        logger.error(`calltape: cannot trace ${method} ${redactor.path(where.path)}: ${(error as Error).message}`);
      }
    };
    const observeReplay = (recording: Recording, loop?: LoopRecord): void => {
      if (observer) observe(roundOf(undefined, upstreamOfRecording(recording), undefined, loop));
    };
    const missed = (message: string): void => observer?.miss(where.sessionId, message);

    /** A recording the tool loop may use: not past expiry unless expired ones are only warned about. */
    const usable = (found: Recording | undefined): Recording | undefined => {
      if (!found || maxAgeMs === undefined || Date.now() - found.startedAt <= maxAgeMs) return found;
      if (config.expiry.onExpired !== 'warn') return undefined;
      stats.expired++;
      return found;
    };
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
      // Parsed only to reject bad JSON before it costs an upstream call; summaries are built off this path.
      JSON.parse(text);
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
        allowTools: new Set(config.mocks.allowTools),
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
            const found = usable(findRecording(reader, keyed.match, config.match.onExhausted));
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
      { method, path: upstream.pathPrefix + where.path, headers: upstreamRequestHeaders(request.headers), body, startedPerf, capture: capture || diffing },
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
        else if (compareWith) recorder.diff(where.cassette, compareWith, roundOf(match, captured, failure));
      },
    );
  };
}

/** Reasons kept for the summary; a proxy serving a long CI run must not grow without bound. */
export const maxReasons = 1_000;

/** Counts a replay miss for the run's summary and the cassette's replay-run note. */
export function countMiss(stats: ReplayStats, cassette: string, reason: string): void {
  stats.misses++;
  stats.missedIn.set(cassette, (stats.missedIn.get(cassette) ?? 0) + 1);
  if (stats.missReasons.length < maxReasons) stats.missReasons.push(reason);
}

/** `12h` / `30d` in milliseconds; undefined for no limit. */
export function parseMaxAge(maxAge: string | null): number | undefined {
  const match = maxAge === null ? null : /^(\d+)(h|d)$/.exec(maxAge);
  if (!match) return undefined;
  return Number(match[1]) * (match[2] === 'd' ? 86_400_000 : 3_600_000);
}

function formatAge(ms: number): string {
  const hours = ms / 3_600_000;
  return hours >= 48 ? `${Math.floor(hours / 24)} days` : `${Math.floor(hours)} hours`;
}

export function findRecording(reader: CassetteReader, match: MatchKey, onExhausted: 'error' | 'repeat-last'): Recording | undefined {
  const exact = reader.find(match.key, match.ordinal, match.scope);
  if (exact || onExhausted === 'error') return exact;
  const last = reader.lastOrdinal(match.key);
  return last === undefined ? undefined : reader.find(match.key, last, match.scope);
}

export function describeMiss(reader: CassetteReader, keyed: { match: MatchKey; canonical: Parameters<CassetteReader['nearest']>[0] }, cassette: string, method: string, path: string): CalltapeError {
  const recorded = reader.lastOrdinal(keyed.match.key);
  const scope = keyed.match.scope ? `session "${keyed.match.scope}"` : 'this run';
  if (recorded !== undefined) {
    return new CalltapeError('CASSETTE_MISS', `calltape: cassette ${cassette}: ${method} ${path} was recorded ${recorded + 1} time(s); this is request ${keyed.match.ordinal + 1} of it in ${scope}. Re-record, or set match.onExhausted to "repeat-last".`);
  }
  const nearest = reader.nearest(keyed.canonical);
  const detail = nearest ? `; the nearest recording (${nearest.id}) differs at ${nearest.mismatch.field}:\n  ${nearest.mismatch.lines.join('\n  ')}` : '; the cassette has no recording of this kind';
  return new CalltapeError('CASSETTE_MISS', `calltape: cassette ${cassette} has no recording for ${method} ${path}${detail}\nRe-record with --mode record, or use --mode auto to record what is missing.`);
}

function withoutSessionHeader(headers: IncomingMessage['headers']): IncomingMessage['headers'] {
  if (headers[sessionHeader] === undefined) return headers;
  const { [sessionHeader]: _session, ...rest } = headers;
  return rest;
}

/** A recording as the upstream outcome it once was, to trace a replayed answer like a live one. */
function upstreamOfRecording(recording: Recording): CapturedRound['upstream'] {
  const body = recording.body ?? Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  const chunkTimes: number[] = [];
  let start = 0;
  for (const [end, atMs] of recording.chunks) {
    if (end > start) {
      chunks.push(body.subarray(start, end));
      chunkTimes.push(atMs);
    }
    start = Math.max(start, end);
  }
  if (start < body.length) {
    chunks.push(body.subarray(start));
    chunkTimes.push(chunkTimes.at(-1) ?? 0);
  }
  return { status: recording.httpStatus, headers: recording.headers, chunks, chunkTimes, firstByteMs: chunkTimes[0], totalMs: chunkTimes.at(-1) ?? 0, ending: (recording.ending ?? 'finished') as ResponseEnding, errorMessage: recording.error ?? undefined };
}
