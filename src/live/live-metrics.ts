import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import {
  FastCounter,
  FastHistogram,
  type CounterSeries,
  type HistogramSeries,
} from './fast-metrics.js';
import { LabelGuard } from './label-guard.js';
import type { CallVerdict, SessionVerdict } from './verdict-types.js';

/**
 * The proxy's Prometheus metrics (prom-client, a registry of its own). Labels carry names, never
 * ids: tool, model and policy values are bounded by `LabelGuard`, reasons and verdicts are closed
 * sets. Series from several replicas are aggregated by Prometheus itself.
 */
export class LiveMetrics {
  readonly registry = new Registry();
  private readonly tools = new LabelGuard(200);
  private readonly models = new LabelGuard(50);
  private readonly policies = new LabelGuard(100);
  // Updated on the response path of every request: plain-arithmetic series (see fast-metrics.ts).
  private readonly requests: FastCounter;
  private readonly ttfb: FastHistogram;
  private readonly duration: FastHistogram;
  private readonly captured: Counter<'tool' | 'model'>;
  private readonly scored: Counter<'tool' | 'model' | 'verdict'>;
  private readonly failures: Counter<'policy' | 'tool' | 'reason' | 'model'>;
  private readonly score: Histogram<'tool'>;
  private readonly sessions: Counter<'verdict'>;
  private readonly queued: Counter;
  private readonly dropped: Counter;
  readonly alerts: Counter<'policy'>;
  readonly alertDeliveryFailures: Counter;
  readonly reloads: Counter<'result'>;
  readonly policiesLoaded: Gauge;
  readonly feedClients: Gauge;
  readonly feedDropped: Counter;
  /** Failures that escaped a request or upgrade listener (answered 400/500 or the socket destroyed). */
  readonly listenerFailures: Counter<'listener'>;
  /** Captured rounds not recorded because the store worker's queue was full (limits.maxStoreQueueBytes). */
  readonly storeDropped: Counter;
  /** OTLP export: spans the collector accepted. */
  readonly otlpExported: Counter;
  /** OTLP export: what was lost — `round` (the sink's queue was full or the round could not be parsed), `span` (the export queue was full or a batch failed). */
  readonly otlpDropped: Counter<'what'>;

  constructor(queueDepth: () => number) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'calltape_' });
    const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
    this.requests = new FastCounter(
      'calltape_requests_total',
      'Round trips answered on captured routes, by wire route, model and HTTP status class.',
    ).register(this.registry);
    this.ttfb = new FastHistogram(
      'calltape_upstream_ttfb_seconds',
      'Time from the request to the first upstream body byte.',
      seconds,
    ).register(this.registry);
    this.duration = new FastHistogram(
      'calltape_upstream_duration_seconds',
      'Time from the request to the end of the upstream answer.',
      seconds,
    ).register(this.registry);
    this.captured = new Counter({
      name: 'calltape_tool_calls_captured_total',
      help: 'Tool calls parsed from live traffic by the shadow scorer.',
      labelNames: ['tool', 'model'],
      registers,
    });
    this.scored = new Counter({
      name: 'calltape_tool_calls_scored_total',
      help: 'Tool calls at least one policy evaluated, by verdict; verdict="error": calls (or rounds, tool "unknown") whose scoring threw.',
      labelNames: ['tool', 'model', 'verdict'],
      registers,
    });
    this.failures = new Counter({
      name: 'calltape_policy_failures_total',
      help: 'Policy failures of calls and sessions, by policy, tool (empty for session policies), reason and model.',
      labelNames: ['policy', 'tool', 'reason', 'model'],
      registers,
    });
    this.score = new Histogram({
      name: 'calltape_tool_call_score',
      help: 'Policy score of each scored tool call (0..1).',
      labelNames: ['tool'],
      buckets: [0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1],
      registers,
    });
    this.sessions = new Counter({
      name: 'calltape_sessions_scored_total',
      help: 'Sessions scored after going idle, by verdict.',
      labelNames: ['verdict'],
      registers,
    });
    this.queued = new Counter({
      name: 'calltape_shadow_queued_total',
      help: 'Round trips handed to the shadow scorer.',
      registers,
    });
    this.dropped = new Counter({
      name: 'calltape_shadow_dropped_total',
      help: 'Round trips dropped unscored because the shadow queue was full (oldest first).',
      registers,
    });
    new Gauge({
      name: 'calltape_shadow_queue_depth',
      help: 'Round trips waiting for the shadow scorer.',
      registers,
      collect() {
        this.set(queueDepth());
      },
    });
    this.alerts = new Counter({
      name: 'calltape_alerts_total',
      help: 'Pass-rate alerts raised, by policy.',
      labelNames: ['policy'],
      registers,
    });
    this.alertDeliveryFailures = new Counter({
      name: 'calltape_alert_delivery_failures_total',
      help: 'Alert webhook POSTs that failed.',
      registers,
    });
    this.reloads = new Counter({
      name: 'calltape_policies_reloads_total',
      help: 'Policy file reloads, by result (ok, error).',
      labelNames: ['result'],
      registers,
    });
    this.policiesLoaded = new Gauge({
      name: 'calltape_policies_loaded_timestamp_seconds',
      help: 'When the policies in force were loaded (Unix time).',
      registers,
    });
    this.feedClients = new Gauge({
      name: 'calltape_feed_clients',
      help: 'WebSocket feed clients connected.',
      registers,
    });
    this.feedDropped = new Counter({
      name: 'calltape_feed_dropped_clients_total',
      help: 'Feed clients disconnected for reading too slowly.',
      registers,
    });
    this.listenerFailures = new Counter({
      name: 'calltape_listener_failures_total',
      help: 'Failures that escaped a request or upgrade listener, by listener; each was answered 400/500 or its socket destroyed.',
      labelNames: ['listener'],
      registers,
    });
    this.storeDropped = new Counter({
      name: 'calltape_store_dropped_total',
      help: 'Captured round trips not recorded because the store queue was full (limits.maxStoreQueueBytes).',
      registers,
    });
    this.otlpExported = new Counter({
      name: 'calltape_otlp_spans_exported_total',
      help: 'GenAI spans the OTLP collector accepted.',
      registers,
    });
    this.otlpDropped = new Counter({
      name: 'calltape_otlp_dropped_total',
      help: 'OTLP export losses: rounds never traced (what=round) and spans never delivered (what=span: queue full or the collector failed).',
      labelNames: ['what'],
      registers,
    });
  }

  /** Series by route, model (after the guard) and status class; latency series by route and model. Bounded by the guard. */
  private readonly requestSeries = new Map<
    string,
    { count: CounterSeries; latency: { ttfb: HistogramSeries; duration: HistogramSeries } }
  >();
  private readonly latencySeries = new Map<
    string,
    { ttfb: HistogramSeries; duration: HistogramSeries }
  >();

  request(
    route: string,
    model: string | undefined,
    status: number | undefined,
    firstByteMs: number | undefined,
    totalMs: number,
  ): void {
    const statusClass = status === undefined ? 'error' : `${Math.floor(status / 100)}xx`;
    const guarded = this.models.value(model);
    const key = `${route}\u0000${guarded}\u0000${statusClass}`;
    let series = this.requestSeries.get(key);
    if (!series) {
      const labels = { route, model: guarded };
      const latencyKey = `${route}\u0000${guarded}`;
      let latency = this.latencySeries.get(latencyKey);
      if (!latency)
        this.latencySeries.set(
          latencyKey,
          (latency = { ttfb: this.ttfb.series(labels), duration: this.duration.series(labels) }),
        );
      this.requestSeries.set(
        key,
        (series = { count: this.requests.series({ ...labels, status: statusClass }), latency }),
      );
    }
    series.count.inc();
    if (firstByteMs !== undefined) series.latency.ttfb.observe(firstByteMs / 1000);
    if (status !== undefined) series.latency.duration.observe(totalMs / 1000);
  }

  queuedRound(dropped: boolean): void {
    this.queued.inc();
    if (dropped) this.dropped.inc();
  }

  calls(verdicts: readonly CallVerdict[]): void {
    for (const call of verdicts) {
      const tool = this.tools.value(call.tool);
      const model = this.models.value(call.model);
      this.captured.inc({ tool, model });
      // An error verdict evaluated no policy, yet is counted: a call scoring lost is never silent.
      if (call.verdict === 'error') this.scored.inc({ tool, model, verdict: call.verdict });
      if (call.evaluated.length === 0) continue;
      this.scored.inc({ tool, model, verdict: call.verdict });
      this.score.observe({ tool }, call.score);
      for (const failure of call.failures)
        this.failures.inc({
          policy: this.policies.value(failure.policy),
          tool,
          reason: failure.reason,
          model,
        });
    }
  }

  sessionVerdicts(verdicts: readonly SessionVerdict[]): void {
    for (const session of verdicts) {
      this.sessions.inc({ verdict: session.verdict });
      const model = this.models.value(session.model);
      for (const failure of session.failures)
        this.failures.inc({
          policy: this.policies.value(failure.policy),
          tool: '',
          reason: failure.reason,
          model,
        });
    }
  }
}
