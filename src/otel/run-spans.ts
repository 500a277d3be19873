import { resolve } from 'node:path';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { CalltapeError } from '../errors.js';
import type { CaseResult } from '../scoring/case-result.js';
import type { Interaction } from '../trace/trace.js';
import type { Evaluation, SpanAttributes } from './gen-ai-spans.js';
import type { OtlpSettings } from './otlp-settings.js';
import { startOtlpTracing, type OtlpTracing } from './otlp-tracing.js';
import type { McpOperation } from './mcp-operation.js';
import { SessionSpans } from './session-spans.js';
import { writePrivateFile } from '../private-files.js';
import { printableText, printableUrl } from '../cassette/printable-url.js';

/** Where a finished run's spans go: an OTLP collector, or an OTLP/JSON file. */
export type SpanTarget =
  | { readonly kind: 'collector'; readonly settings: OtlpSettings }
  | { readonly kind: 'file'; readonly path: string; readonly captureContent: boolean };

/** What a run sent: spans written, and spans lost on the way (a collector that failed). */
export interface SpanTally {
  /** Spans the collector accepted (or the file holds). */
  readonly spans: number;
  /** Spans that never reached the collector: refused, failed after retries, or still in flight at the bound. */
  readonly dropped: number;
  /** Why the first batch failed, as the exporter said it; undefined when none did. */
  readonly failure?: string;
}

/**
 * The most a finished run waits for its spans to reach a collector, the exporter's retries
 * with backoff included (they are given this as their deadline too, so none outlives it). A
 * collector that is down costs a run at most this, and the spans it did not take are counted
 * as lost rather than waited for.
 */
export const runExportBoundMs = 2_000;

/**
 * The spans of recorded traffic — a cassette, or the cases of a `calltape test` run — written
 * session by session once each is over: an `invoke_agent` span per session with its rounds and
 * tool calls inside, and each score calltape computed as a `gen_ai.evaluation.result` event.
 */
export class RunSpans {
  private readonly tracing: OtlpTracing;
  private readonly spans: SessionSpans;
  private readonly memory: InMemorySpanExporter | undefined;
  private failure: string | undefined;

  constructor(
    private readonly target: SpanTarget,
    options: { readonly agentName?: string } = {},
  ) {
    this.memory = target.kind === 'file' ? new InMemorySpanExporter() : undefined;
    const settings =
      target.kind === 'collector'
        ? target.settings
        : { url: undefined, protocol: 'http/json' as const };
    this.tracing = startOtlpTracing(
      settings,
      // Said once, in the run's closing warning: a run's export is over when the run is.
      { failing: (message) => void (this.failure ??= message) },
      this.memory,
      runExportBoundMs,
    );
    const content =
      target.kind === 'collector' ? target.settings.captureContent : target.captureContent;
    this.spans = new SessionSpans(this.tracing.tracer, {
      capture: { content },
      ...(options.agentName === undefined ? {} : { agentName: options.agentName }),
    });
  }

  /** One whole session: its rounds and MCP exchanges in time order, then the evaluations, then its end. */
  session(
    interactions: readonly Interaction[],
    evaluations: readonly Evaluation[] = [],
    rootAttributes: SpanAttributes = {},
    error?: string,
    mcp: readonly McpOperation[] = [],
  ): void {
    const ordered = [...interactions].sort((a, b) => a.timing.startedAt - b.timing.startedAt);
    const [first] = ordered;
    // MCP traffic of no traced LLM session: each exchange its own root span.
    if (!first) return void mcp.forEach((operation) => this.spans.mcp(operation));
    const exchanges = [...mcp].sort((a, b) => a.span.startMs - b.span.startMs);
    for (const interaction of ordered) {
      while (exchanges[0] && exchanges[0].span.startMs < interaction.timing.startedAt)
        this.spans.mcp(exchanges.shift() as McpOperation);
      this.spans.interaction(interaction, rootAttributes);
    }
    for (const operation of exchanges) this.spans.mcp(operation);
    const endMs = Math.max(
      ...ordered.map((interaction) => interaction.timing.startedAt + interaction.timing.totalMs),
      ...mcp.map((operation) => operation.span.endMs),
    );
    for (const evaluation of evaluations) this.spans.evaluate(first.sessionId, evaluation, endMs);
    this.spans.end(first.sessionId, error);
  }

  /** Every session of some recorded traffic (a cassette's interactions and MCP exchanges, any order). */
  sessions(interactions: readonly Interaction[], mcp: readonly McpOperation[] = []): void {
    const bySession = new Map<string, { rounds: Interaction[]; mcp: McpOperation[] }>();
    const of = (id: string) => {
      let session = bySession.get(id);
      if (!session) bySession.set(id, (session = { rounds: [], mcp: [] }));
      return session;
    };
    for (const interaction of interactions) of(interaction.sessionId).rounds.push(interaction);
    for (const operation of mcp) of(operation.sessionId).mcp.push(operation);
    for (const session of bySession.values())
      this.session(session.rounds, [], {}, undefined, session.mcp);
  }

  /** A test case: its session's spans, with the case's verdict, its call score and every check (judges included) as evaluations. */
  case(result: CaseResult, interactions: readonly Interaction[]): void {
    const extra = { 'calltape.case.id': result.test_id, 'calltape.run': result.run };
    this.session(
      interactions,
      caseEvaluations(result),
      { ...extra, 'calltape.case.status': result.status },
      result.status === 'pass'
        ? undefined
        : `case ${result.status}: ${result.problems[0] ?? result.error ?? ''}`.trim(),
    );
  }

  /**
   * Sends (or writes) everything; for a file, the OTLP/JSON export request holding every span.
   * A collector gets at most `runExportBoundMs`; what it has not accepted by then is lost.
   */
  async finish(): Promise<SpanTally> {
    // Read before the shutdown: shutting the in-memory exporter down empties it.
    const finished = this.memory?.getFinishedSpans() ?? [];
    await this.tracing.shutdown(runExportBoundMs);
    const { exported, dropped, ended } = this.tracing.counters();
    if (this.target.kind === 'collector')
      return {
        spans: exported,
        dropped: ended - exported,
        ...(this.failure === undefined ? {} : { failure: this.failure }),
      };
    const bytes = JsonTraceSerializer.serializeRequest(finished);
    if (!bytes)
      throw new CalltapeError(
        'STORE_IO',
        `${this.target.path}: the spans could not be serialised as OTLP/JSON`,
      );
    const path = resolve(this.target.path);
    writePrivateFile(path, bytes);
    return { spans: finished.length, dropped };
  }
}

/** A case's scores as evaluations: the case, the call scorer, each trajectory check. */
export function caseEvaluations(result: CaseResult): Evaluation[] {
  const extra = { 'calltape.case.id': result.test_id, 'calltape.run': result.run };
  const evaluations: Evaluation[] = [
    {
      name: 'calltape.case',
      score: result.score,
      label: result.status,
      explanation: [...result.problems, ...(result.error ? [result.error] : [])].join('; '),
      ...(result.status === 'error' ? { errorType: 'case_error' } : {}),
      extra,
    },
  ];
  if (result.call)
    evaluations.push({
      name: 'calltape.call',
      score: result.call.score,
      label: result.call.is_correct ? 'pass' : 'fail',
      ...(result.call.error_message ? { explanation: result.call.error_message } : {}),
      extra,
    });
  for (const check of result.trajectory?.checks ?? []) {
    // A judge says why it passed too: its reason is the explanation when there is no failure message.
    const reason = check.details['reason'];
    const explanation = check.message ?? (typeof reason === 'string' ? reason : undefined);
    const kind = check.details['judge'];
    evaluations.push({
      name: `calltape.check.${check.check}`,
      score: check.score,
      label: check.status,
      ...(explanation ? { explanation } : {}),
      ...(check.status === 'error' ? { errorType: check.reasons[0] ?? 'undecided' } : {}),
      extra: typeof kind === 'string' ? { ...extra, 'calltape.judge.kind': kind } : extra,
    });
  }
  return evaluations;
}

/** Where spans go, as output may say it: the traces URL with its credentials masked, or the variable the SDK reads. */
export function collectorName(settings: Pick<OtlpSettings, 'url'>): string {
  return settings.url === undefined ? 'OTEL_EXPORTER_OTLP_ENDPOINT' : printableUrl(settings.url);
}

/** The one warning a run's export gives when spans were lost, or undefined when none were. */
export function lostSpansWarning(
  tally: SpanTally,
  settings: Pick<OtlpSettings, 'url'>,
): string | undefined {
  if (tally.dropped === 0) return undefined;
  const where = collectorName(settings);
  // An exporter message may quote the URL it was given; it is said without credentials.
  const why = tally.failure === undefined ? undefined : printableText(tally.failure);
  return `OpenTelemetry: ${tally.dropped} of ${tally.dropped + tally.spans} span(s) lost: ${where} did not accept them within ${runExportBoundMs / 1000} s${why === undefined ? '' : ` (${why})`}`;
}
