import type { CapturedRound } from '../cassette/captured-round.js';
import type { Config } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { OtlpSettings } from '../otel/otlp-settings.js';
import type { McpExchange } from '../mcp/mcp-exchange.js';
import { reportedCall } from '../mcp/mcp-call-report.js';
import type { ProxySpans, startProxySpans } from './proxy-spans.js';
import { isLoopbackHost } from './admin-auth.js';
import { createAdminRoutes, type AdminExtension, type AdminRoutes } from './admin-routes.js';
import { AlertWindow, type Alert } from './alert-window.js';
import { parseDuration } from './duration.js';
import { Feed } from './feed.js';
import type { FeedEvent } from './feed-events.js';
import { LiveMetrics } from './live-metrics.js';
import type { Policies } from './policy-types.js';
import { RecentActivity } from './recent-activity.js';
import type { RelayedMcpCall } from './relayed-mcp-calls.js';
import type { ShadowQueue } from './shadow-queue.js';
import {
  policyFailed,
  shownVerdict,
  type CallVerdict,
  type SessionVerdict,
} from './verdict-types.js';

/** What the proxy's routes tell the live side: every answered round trip, cheaply. */
export interface LiveTap {
  /** Routes must keep the response body chunks (shadow scoring parses them). */
  readonly capturing: boolean;
  /** A round trip is done: metrics, the feed, and (with shadow scoring on) the scoring queue. Never blocks. */
  round(round: CapturedRound, model: string | undefined): void;
  /** The same without the round's bodies, for routes that keep none (shadow scoring off, nothing recorded). */
  answered(answer: AnsweredRound, model: string | undefined): void;
}

/** What metrics and the feed need of a round trip. */
export interface AnsweredRound {
  readonly adapterId: CapturedRound['adapterId'];
  readonly request: Pick<CapturedRound['request'], 'id' | 'sessionId' | 'startedAt'>;
  readonly upstream:
    Pick<NonNullable<CapturedRound['upstream']>, 'status' | 'firstByteMs' | 'totalMs'> | undefined;
  readonly proxyError: CapturedRound['proxyError'];
}

export interface LiveService extends LiveTap, AdminRoutes {
  /** The proxy listens: LLM judges and embeddings go through it. */
  listening(baseUrl: string): void;
  /** A failure escaped a request or upgrade listener (counted in `calltape_listener_failures_total`). */
  listenerFailed(listener: 'request' | 'upgrade'): void;
  /** A captured round was not recorded: the store queue was full. */
  storeDropped(): void;
  /** Whether MCP exchanges are wanted (OTel export or shadow scoring is on): only then are they passed on. */
  readonly wantsMcp: boolean;
  /** An MCP exchange the proxy's `/mcp/<name>` route answered (redacted): a span, and a tools/call for shadow scoring. */
  mcp(exchange: McpExchange): void;
  /** Tools/calls a `calltape mcp --report-to` relay reported (redacted) for shadow scoring; false when shadow scoring is off. */
  reportedMcp(calls: readonly RelayedMcpCall[]): boolean;
  close(): Promise<void>;
}

/**
 * The live side of the proxy: Prometheus metrics, the admin surfaces (dashboard, feed, state
 * API) behind the admin token, and — when a policies file is configured — shadow scoring of
 * every round trip off the response path, with alerts and hot reload of the policies. An
 * extension (the rating page) is served behind the same checks and closed with the service.
 */
/** OpenTelemetry export: the settings, and the sink's start (loaded only when export is on). */
export interface LiveOtlp {
  readonly settings: OtlpSettings;
  readonly start: typeof startProxySpans;
}

export async function createLiveService(
  config: Config,
  logger: Logger,
  otlp?: LiveOtlp,
  extension?: AdminExtension,
): Promise<LiveService> {
  const token = config.admin.token ?? undefined;
  if (!token && !isLoopbackHost(config.host)) {
    throw new CalltapeError(
      'CONFIG_INVALID',
      `host ${config.host}: the admin surfaces (/metrics, /calltape/) would be open to the network; set an admin token (--admin-token, CALLTAPE_ADMIN_TOKEN or admin.token) or listen on 127.0.0.1`,
    );
  }
  // Loaded only with a policies file: the scoring engine and its loaders are most of the proxy's heap otherwise.
  const shadow = config.shadow.policies ? await import('./shadow-modules.js') : undefined;
  let policies: Policies | undefined =
    shadow && config.shadow.policies
      ? shadow.loadPolicies(config.shadow.policies, process.cwd())
      : undefined;
  const recent = new RecentActivity();
  let queue: ShadowQueue | undefined;
  const metrics = new LiveMetrics(() => queue?.depth ?? 0);
  const feed = new Feed(
    (clients) => metrics.feedClients.set(clients),
    () => metrics.feedDropped.inc(),
    config.timeouts.webSocketIdleMs,
  );
  let alerts = policies ? alertWindowFor(policies) : undefined;
  const publish = (event: FeedEvent): void => feed.publish(event);
  // Shadow verdicts of a session come once the scorer saw it go idle: the span waits a minute longer for them.
  const tracing: ProxySpans | undefined = otlp?.start(otlp.settings, {
    redact: config.redact,
    logger,
    maxDecodedBytes: config.limits.maxDecodedBytes,
    sessionIdleMs: (policies?.sessionIdleMs ?? 0) + 60_000,
    dropped: (what, count) => metrics.otlpDropped.inc({ what }, count),
    exported: (spans) => metrics.otlpExported.inc(spans),
  });

  const onCalls = (verdicts: readonly CallVerdict[]): void => {
    metrics.calls(verdicts);
    tracing?.calls(verdicts);
    recent.addCalls(verdicts);
    for (const verdict of verdicts) {
      if (!shownVerdict(verdict)) continue;
      publish({ type: 'call.scored', ...verdict });
      for (const policy of verdict.evaluated)
        noteAlert(policy, policyFailed(verdict.failures, policy));
    }
  };
  const onSessions = (verdicts: readonly SessionVerdict[]): void => {
    metrics.sessionVerdicts(verdicts);
    tracing?.sessions(verdicts);
    recent.addSessions(verdicts);
    for (const verdict of verdicts) {
      publish({ type: 'session.scored', ...verdict });
      for (const policy of verdict.evaluated)
        noteAlert(policy, policyFailed(verdict.failures, policy));
    }
  };
  const noteAlert = (policy: string, failed: boolean): void => {
    const alert = alerts?.window.note(policy, failed, Date.now());
    if (alert && alerts) raise(alert, alerts.webhook);
  };
  const raise = (alert: Alert, webhook: string): void => {
    metrics.alerts.inc({ policy: alert.policy });
    recent.addAlert(alert);
    publish({ type: 'alert', ...alert });
    logger.error(
      `alert: policy ${alert.policy} passed ${(alert.passRate * 100).toFixed(1)}% of ${alert.evaluated} evaluations in the last ${Math.round(alert.windowMs / 1000)} s (threshold ${(alert.threshold * 100).toFixed(1)}%)`,
    );
    // Alerts come only with a policies file: the webhook client loads with shadow scoring.
    void shadow?.postAlert(webhook, alert).catch((error: unknown) => {
      metrics.alertDeliveryFailures.inc();
      logger.error((error as Error).message);
    });
  };

  let watcher: { close(): void } | undefined;
  if (shadow && policies) {
    const { ShadowQueue, ShadowStore, loadPolicies, watchFile } = shadow;
    const retentionAge =
      config.shadow.retention.maxAge === null
        ? null
        : (parseDuration(config.shadow.retention.maxAge) ?? null);
    // Opened once here so a database that cannot be created or migrated fails the start, naming the file; the worker then owns it.
    new ShadowStore(config.shadow.database, { maxRows: null, maxAgeMs: null }).close();
    queue = new ShadowQueue(
      {
        database: config.shadow.database,
        retention: { maxRows: config.shadow.retention.maxRows, maxAgeMs: retentionAge },
        redactHeaders: config.redact.headers,
        bodyPatterns: config.redact.bodyPatterns,
        builtinPatterns: config.redact.builtinPatterns,
        maxDecodedBytes: config.limits.maxDecodedBytes,
        policies,
      },
      config.shadow.queueSize,
      { calls: onCalls, sessions: onSessions, error: (message) => logger.error(message) },
    );
    metrics.reloads.inc({ result: 'ok' });
    metrics.policiesLoaded.set(Date.now() / 1000);
    const file = policies.file;
    watcher = watchFile(file, () => {
      try {
        const next = loadPolicies(file, process.cwd());
        policies = next;
        alerts = alertWindowFor(next);
        queue?.setPolicies(next);
        metrics.reloads.inc({ result: 'ok' });
        metrics.policiesLoaded.set(Date.now() / 1000);
        logger.info(`${file}: policies reloaded (${next.policies.length})`);
        publish({
          type: 'policies.reloaded',
          at: Date.now(),
          ok: true,
          message: `${next.policies.length} policies in force`,
        });
      } catch (error) {
        metrics.reloads.inc({ result: 'error' });
        const message = `${(error as Error).message}; keeping the last good policies`;
        logger.error(message);
        publish({ type: 'policies.reloaded', at: Date.now(), ok: false, message });
      }
    });
  }

  function answered(round: AnsweredRound, model: string | undefined): void {
    const upstream = round.upstream;
    metrics.request(
      round.adapterId,
      model,
      upstream?.status,
      upstream?.firstByteMs,
      upstream?.totalMs ?? 0,
    );
    if (feed.size === 0) return;
    publish({
      type: 'call.captured',
      at: round.request.startedAt,
      interactionId: round.request.id,
      sessionId: round.request.sessionId,
      route: round.adapterId,
      model: model ?? 'unknown',
      status: upstream?.status ?? round.proxyError?.status ?? null,
      firstByteMs: upstream?.firstByteMs ?? null,
      totalMs: upstream?.totalMs ?? 0,
    });
  }

  const admin = createAdminRoutes(
    token,
    metrics,
    feed,
    () => ({
      shadow: policies
        ? {
            policies: policies.policies.map((policy) => ({
              id: policy.id,
              kind: policy.kind,
              threshold: policy.threshold ?? null,
            })),
            file: policies.file,
          }
        : null,
      queue: {
        depth: queue?.depth ?? 0,
        accepted: queue?.accepted ?? 0,
        dropped: queue?.dropped ?? 0,
      },
      ...recent.snapshot(),
    }),
    config.admin.allowedHosts,
    extension,
  );

  return {
    capturing: queue !== undefined || tracing !== undefined,
    wantsMcp: tracing !== undefined || queue !== undefined,
    mcp(exchange) {
      tracing?.mcp(exchange);
      if (queue && exchange.method === 'tools/call') queue.offerMcp(reportedCall(exchange));
    },
    reportedMcp(calls) {
      if (!queue) return false;
      for (const call of calls) queue.offerMcp(call);
      return true;
    },
    answered,
    round(round, model) {
      answered(round, model);
      tracing?.round(round);
      if (!queue) return;
      const dropped = queue.dropped;
      queue.offer(round);
      metrics.queuedRound(queue.dropped > dropped);
    },
    listenerFailed: (listener) => metrics.listenerFailures.inc({ listener }),
    storeDropped: () => metrics.storeDropped.inc(),
    handle: admin.handle,
    upgrade: admin.upgrade,
    listening(baseUrl) {
      queue?.setProxyUrl(baseUrl);
    },
    async close() {
      watcher?.close();
      await queue?.close(config.timeouts.shutdownGraceMs);
      await tracing?.close(config.timeouts.shutdownGraceMs);
      feed.close();
      extension?.close();
    },
  };
}

function alertWindowFor(policies: Policies): { window: AlertWindow; webhook: string } | undefined {
  if (!policies.alerts) return undefined;
  const thresholds = new Map(
    policies.policies.flatMap((policy) =>
      policy.threshold === undefined ? [] : [[policy.id, policy.threshold] as const],
    ),
  );
  return { window: new AlertWindow(policies.alerts, thresholds), webhook: policies.alerts.webhook };
}
