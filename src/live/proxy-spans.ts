import { buildExchange } from '../cassette/build-exchange.js';
import type { CapturedRound } from '../cassette/captured-round.js';
import type { Redactor } from '../cassette/redact.js';
import type { Logger } from '../logger.js';
import {
  policyFailed,
  undecidedReasons,
  type CallVerdict,
  type PolicyFailure,
  type SessionVerdict,
} from './verdict-types.js';
import { adapterById } from '../providers/adapters.js';
import type { Evaluation } from '../otel/gen-ai-spans.js';
import type { OtlpSettings } from '../otel/otlp-settings.js';
import { startOtlpTracing } from '../otel/otlp-tracing.js';
import type { McpOperation } from '../otel/mcp-operation.js';
import { SessionSpans } from '../otel/session-spans.js';

/** The proxy's OTel sink: round trips and shadow verdicts in, GenAI spans out, never on the response path. */
export interface ProxySpans {
  /** A round trip is done. Returns at once: the round is parsed and written on a later tick. */
  round(round: CapturedRound): void;
  /** An MCP exchange the proxy's `/mcp/<name>` route answered: queued like a round, in the same order. */
  mcp(operation: McpOperation): void;
  /** Shadow verdicts of calls: `gen_ai.evaluation.result` events on their session. */
  calls(verdicts: readonly CallVerdict[]): void;
  /** Shadow verdicts of sessions the scorer saw go idle: events, then the session span ends. */
  sessions(verdicts: readonly SessionVerdict[]): void;
  /** Writes what is queued, ends every session and sends what it can within `graceMs`. */
  close(graceMs: number): Promise<void>;
}

export interface ProxySpanOptions {
  readonly redactor: Redactor;
  readonly logger: Logger;
  /** `limits.maxDecodedBytes`: what parsing one round may decode. */
  readonly maxDecodedBytes: number;
  /** A session with no round for this long is ended (its `invoke_agent` span is sent). */
  readonly sessionIdleMs: number;
  /** Counted in /metrics: what was lost (`round`: the sink's queue was full; `span`: the export's). */
  readonly dropped: (what: 'round' | 'span', count: number) => void;
  readonly exported: (spans: number) => void;
}

/** Rounds waiting to become spans; beyond it the oldest is dropped (and counted). */
const maxQueuedRounds = 1000;
/** Rounds turned into spans per tick, so a burst never holds the event loop for long. */
const roundsPerTick = 25;

/**
 * Turns the proxy's finished rounds into GenAI spans off the response path: a round joins a
 * bounded queue and is parsed — behind the one redaction step, as the store does — on a later
 * tick; spans go to the SDK's batch processor, which exports in the background. A collector
 * that is down is logged once per outage and its lost spans counted; the proxy never waits on it.
 */
export function startProxySpans(settings: OtlpSettings, options: ProxySpanOptions): ProxySpans {
  const tracing = startOtlpTracing(settings, {
    dropped: (spans) => options.dropped('span', spans),
    exported: options.exported,
    failing: (message) =>
      message === undefined
        ? options.logger.info('OTLP export recovered')
        : options.logger.error(
            `OTLP export failed: ${message}; spans are dropped (counted in calltape_otlp_dropped_total) until the collector answers`,
          ),
  });
  const spans = new SessionSpans(tracing.tracer, { capture: { content: settings.captureContent } });
  // Rounds and MCP exchanges in one queue, so a tools/call is seen after the round that asked for it.
  const queue: (CapturedRound | McpOperation)[] = [];
  let scheduled = false;

  const drain = (): void => {
    scheduled = false;
    for (const item of queue.splice(0, roundsPerTick))
      if ('span' in item) spans.mcp(item);
      else write(item);
    if (queue.length > 0) schedule();
  };
  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(drain);
  };
  const write = (round: CapturedRound): void => {
    const adapter = adapterById(round.adapterId);
    if (!adapter) return;
    try {
      spans.interaction(
        buildExchange(adapter, options.redactor, round, undefined, {
          maxDecodedBytes: options.maxDecodedBytes,
        }).interaction,
      );
    } catch (error) {
      options.dropped('round', 1);
      options.logger.error(
        `OTLP export: cannot trace round ${round.request.id}: ${(error as Error).message}`,
      );
    }
  };
  const enqueue = (item: CapturedRound | McpOperation): void => {
    if (queue.length >= maxQueuedRounds) {
      queue.shift();
      options.dropped('round', 1);
    }
    queue.push(item);
    schedule();
  };
  const sweep = setInterval(
    () => spans.endIdle(Date.now() - options.sessionIdleMs),
    Math.min(10_000, Math.max(50, Math.floor(options.sessionIdleMs / 2))),
  );
  sweep.unref();

  return {
    round: (round) => enqueue(round),
    mcp: (operation) => enqueue(operation),
    calls(verdicts) {
      drain();
      for (const verdict of verdicts) {
        for (const policy of verdict.evaluated)
          spans.evaluate(
            verdict.sessionId,
            policyEvaluation(
              policy,
              verdict.failures,
              verdict.evaluated.length === 1 ? verdict.score : undefined,
              {
                'calltape.interaction.id': verdict.interactionId,
                'gen_ai.tool.name': verdict.tool,
                'calltape.tool.call.index': verdict.callIndex,
              },
            ),
            verdict.at,
          );
      }
    },
    sessions(verdicts) {
      drain();
      for (const verdict of verdicts) {
        for (const policy of verdict.evaluated)
          spans.evaluate(
            verdict.sessionId,
            policyEvaluation(
              policy,
              verdict.failures,
              verdict.evaluated.length === 1 ? verdict.score : undefined,
              verdict.caseId === undefined ? {} : { 'calltape.case.id': verdict.caseId },
            ),
            verdict.endedAt,
          );
        spans.end(
          verdict.sessionId,
          verdict.verdict === 'fail' ? 'the session failed a shadow policy' : undefined,
        );
      }
    },
    async close(graceMs) {
      clearInterval(sweep);
      while (queue.length > 0) drain();
      spans.endAll();
      await tracing.shutdown(graceMs);
    },
  };
}

/** One policy's verdict on a call or session as an evaluation: pass, fail, or error (it could not decide). */
export function policyEvaluation(
  policy: string,
  failures: readonly PolicyFailure[],
  score: number | undefined,
  extra: Evaluation['extra'],
): Evaluation {
  const own = failures.filter((failure) => failure.policy === policy);
  const undecided = own.length > 0 && own.every((failure) => undecidedReasons.has(failure.reason));
  const label = policyFailed(failures, policy) ? 'fail' : undecided ? 'error' : 'pass';
  return {
    name: policy,
    label,
    ...(score === undefined ? {} : { score }),
    ...(own.length === 0 ? {} : { explanation: own.map((failure) => failure.message).join('; ') }),
    ...(undecided ? { errorType: own[0]?.reason ?? 'undecided' } : {}),
    ...(extra === undefined ? {} : { extra }),
  };
}
