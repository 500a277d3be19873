import type { IncomingHttpHeaders } from 'node:http';
import { buildInteraction } from '../cassette/build-exchange.js';
import type { CapturedRound, CapturedUpstream } from '../cassette/captured-round.js';
import type { MissCause } from '../cassette/describe-mismatch.js';
import type { MatchKey } from '../cassette/match-key.js';
import type { Redactor } from '../cassette/redact.js';
import type { CassetteReader, Recording } from '../cassette/sqlite/cassette-reader.js';
import type { Recorder } from '../cassette/worker-recorder.js';
import type { Config } from '../config/config.js';
import type { CalltapeError } from '../errors.js';
import type { LiveTap } from '../live/live-service.js';
import type { RoundOutcome } from '../mocks/tool-loop.js';
import { bodyBytes } from '../providers/body-text.js';
import type { ProviderAdapter } from '../providers/provider-adapter.js';
import type { Logger } from '../logger.js';
import { ReplayKeys } from './replay-keys.js';
import {
  countMiss,
  maxReasons,
  ReplayMissError,
  withoutSessionHeader,
  type ReplayStats,
} from './replay-lookup.js';
import { lookUpRecording } from './look-up-recording.js';
import { apiKeyVariable, noApiKeyError, sendsPlaceholderKey } from './placeholder-key.js';
import type { ProxyObserver, Where } from './route-types.js';

/**
 * What to do with one round, decided once from the mode and the cassette: serve a recording
 * (`hit`), answer with the miss error (`miss`), or go to the upstream (`forward`, with the key a
 * lookup computed and, in diff mode, the recording to compare the live answer with).
 */
export type RoundDecision =
  | { readonly kind: 'hit'; readonly recording: Recording; readonly match: MatchKey }
  | { readonly kind: 'miss'; readonly error: CalltapeError }
  | {
      readonly kind: 'forward';
      readonly match: MatchKey | undefined;
      readonly compareWith: string | null | undefined;
    };

/** A request as the pipeline identifies it. */
export interface RoundRequest {
  readonly adapter: ProviderAdapter;
  readonly where: Where;
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
  /** The body as sent upstream, as text. */
  readonly text: string;
  /** How the request is named in messages, e.g. `/v1/responses (WebSocket)`; default its redacted path. */
  readonly label?: string;
}

/** A round that ended: what was asked, what came back and from where, for the sinks. */
export interface FinishedRound {
  readonly adapter: ProviderAdapter;
  readonly where: Where;
  readonly request: {
    readonly id: string;
    readonly method: string;
    readonly headers: IncomingHttpHeaders;
    readonly body: Uint8Array;
    readonly startedAt: number;
  };
  readonly upstream: CapturedUpstream | undefined;
  readonly match: MatchKey | undefined;
  readonly proxyError?: CalltapeError | undefined;
  /** `upstream`: stored in record and auto modes; `recording`: a replayed answer, observed only. */
  readonly source: 'upstream' | 'recording';
  /** Mock tools: the calls they answered, whether the agent saw the round, and its view where it differs. */
  readonly mocks?: Pick<CapturedRound, 'mocked' | 'hidden' | 'agentView'> | undefined;
  readonly model: string | undefined;
  /** Diff mode: the recording the live answer is compared with (null: none matched). */
  readonly compareWith?: string | null | undefined;
}

export interface CapturePipelineOptions {
  readonly config: Config;
  readonly logger: Logger;
  /** Redacts bodies and paths the same way the store does, so keys are computed from what is stored. */
  readonly redactor: Redactor;
  readonly recorder: Recorder;
  readonly stats: ReplayStats;
  /** Sees every answered round trip as a parsed interaction (for `calltape test`), replays included. */
  readonly observer?: ProxyObserver | undefined;
  /** Metrics, the live feed and shadow scoring: told of every answered round trip. */
  readonly live?: LiveTap | undefined;
}

/**
 * The one capture path both transports feed (HTTP routes, the WebSocket mode, tool-loop rounds):
 * `decide` once per round, the caller runs it (upstream, replay or mock loop), then `finishRound`
 * hands it to every sink — the store, the observer, the live side — and counts it.
 */
export class CapturePipeline {
  private readonly keys: ReplayKeys;
  /** Shadow scoring parses what came back, so chunks are kept in every mode while it is on. */
  readonly tapping: boolean;

  constructor(private readonly options: CapturePipelineOptions) {
    this.keys = new ReplayKeys(options.config.match, options.redactor);
    this.tapping = options.live?.capturing === true;
  }

  /** A path as it may appear in logs and messages (credentials in the query removed). */
  redactedPath(path: string): string {
    return this.options.redactor.path(path);
  }

  /**
   * Hit, miss or forward for a request in its mode; counts hits and misses. In auto mode a miss
   * that would go upstream with only calltape's placeholder key is a miss saying which key to set:
   * the provider would refuse it, and its refusal would be recorded as the model's answer.
   */
  decide(request: RoundRequest, reader: CassetteReader | undefined): RoundDecision {
    const decision = this.lookUp(request, reader);
    if (
      decision.kind !== 'forward' ||
      request.where.mode !== 'auto' ||
      !sendsPlaceholderKey(request.headers)
    )
      return decision;
    const error = noApiKeyError(request.adapter.id);
    // One cause for every case it stops, so a suite run says it once.
    this.missed(request.where, error, {
      field: null,
      meaning: `cannot be recorded without an API key: set ${apiKeyVariable(request.adapter.id)}`,
    });
    return { kind: 'miss', error };
  }

  private lookUp(request: RoundRequest, reader: CassetteReader | undefined): RoundDecision {
    const { where } = request;
    const lookingUp = where.mode === 'replay' || where.mode === 'auto' || where.mode === 'diff';
    if (!lookingUp || !reader) return { kind: 'forward', match: undefined, compareWith: undefined };
    const label = request.label ?? this.options.redactor.path(where.path);
    const keyed = this.keys.keyFor(
      request.method,
      where.path,
      request.headers,
      request.text,
      where.cassette,
      where.sessionId,
    );
    const found = lookUpRecording({
      reader,
      keyed,
      where,
      method: request.method,
      label,
      config: this.options.config,
      stats: this.options.stats,
      logger: this.options.logger,
    });
    if (found.kind === 'forward')
      return { kind: 'forward', match: keyed.match, compareWith: found.compareWith };
    if (found.kind === 'hit') {
      this.options.stats.hits++;
      this.options.stats.served.add(found.recording.id);
      this.options.logger.debug(
        () => `${request.method} ${label} → replayed ${found.recording.id}`,
      );
      return { kind: 'hit', recording: found.recording, match: keyed.match };
    }
    this.missed(where, found.error);
    return found;
  }

  /**
   * Counts and reports a replay miss. An observer that takes misses (a suite run) reports them
   * itself, grouped by cause; logging each too would repeat one cause once per case.
   */
  missed(where: Where, error: CalltapeError, cause?: MissCause): void {
    countMiss(this.options.stats, where.cassette, error.message);
    const { observer } = this.options;
    if (observer)
      observer.miss(
        where.sessionId,
        error.message,
        cause ?? (error instanceof ReplayMissError ? error.missCause : undefined),
      );
    else this.options.logger.error(error.message);
  }

  /** Counts an answer refused under mocks.strictTools. */
  refused(error: CalltapeError): void {
    this.options.stats.refused++;
    this.options.logger.error(error.message);
  }

  /** Hands a finished round to the sinks: diff comparison, the store, the observer, the live side. */
  finishRound(round: FinishedRound): void {
    const { recorder, stats, observer, live } = this.options;
    if (round.where.mode === 'diff' && round.source === 'upstream') return this.compare(round);
    const store =
      round.source === 'upstream' && (round.where.mode === 'record' || round.where.mode === 'auto');
    if (!store && !observer && !this.tapping) {
      live?.answered(
        {
          adapterId: round.adapter.id,
          request: {
            id: round.request.id,
            sessionId: round.where.sessionId ?? round.request.id,
            startedAt: round.request.startedAt,
          },
          upstream: round.upstream,
          proxyError: outline(round.proxyError),
        },
        round.model,
      );
      return;
    }
    const captured = capturedRound(round);
    if (store) {
      stats.recorded++;
      if (captured.proxyError && captured.upstream?.status === undefined) stats.unanswered++;
      recorder.record(round.where.cassette, captured);
    }
    if (observer) {
      try {
        observer.interaction(buildInteraction(round.adapter, this.options.redactor, captured));
      } catch (error) {
        this.options.logger.error(
          `calltape: cannot trace ${round.request.method} ${this.options.redactor.path(round.where.path)}: ${(error as Error).message}`,
        );
      }
    }
    live?.round(captured, round.model);
  }

  private compare(round: FinishedRound): void {
    const { stats, recorder, redactor } = this.options;
    if (round.compareWith === null && stats.diffs.length < maxReasons)
      stats.diffs.push({
        request: `${round.request.method} ${redactor.path(round.where.path)}`,
        recordingId: undefined,
        lines: ['no recording matches this request'],
      });
    else if (round.compareWith)
      recorder.diff(round.where.cassette, round.compareWith, capturedRound(round));
  }
}

function outline(error: CalltapeError | undefined): CapturedRound['proxyError'] {
  return error && { status: error.status, message: error.message };
}

function capturedRound(round: FinishedRound): CapturedRound {
  const headers = withoutSessionHeader(round.request.headers);
  return {
    adapterId: round.adapter.id,
    request: {
      id: round.request.id,
      sessionId: round.where.sessionId ?? round.request.id,
      method: round.request.method,
      path: round.where.path,
      headers,
      body: round.request.body,
      startedAt: round.request.startedAt,
    },
    upstream: round.upstream,
    match: round.match,
    proxyError: outline(round.proxyError),
    ...round.mocks,
  };
}

/** The mock-tools part of a tool-loop round: the calls answered, whether it was hidden, and the agent's view where it differs. */
export function loopMocks(
  outcome: RoundOutcome,
  agentRequest: Uint8Array | undefined,
  adapter: Pick<ProviderAdapter, 'binaryBodies'>,
): NonNullable<FinishedRound['mocks']> {
  const view = {
    ...(agentRequest ? { request: agentRequest } : {}),
    ...(outcome.agentResponse !== undefined
      ? { response: bodyBytes(adapter, outcome.agentResponse) }
      : {}),
  };
  return {
    mocked: outcome.mocked,
    hidden: outcome.hidden,
    ...(Object.keys(view).length > 0 ? { agentView: view } : {}),
  };
}
