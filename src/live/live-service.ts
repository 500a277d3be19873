import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { request as undiciRequest } from 'undici';
import type { CapturedRound } from '../cassette/captured-round.js';
import type { Redactor } from '../cassette/redact.js';
import type { Config } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import type { Logger } from '../proxy/logger.js';
import { adminCookie, isLoopbackHost, presentedToken, tokenMatches } from './admin-auth.js';
import { AlertWindow, type Alert } from './alert-window.js';
import { dashboardPage } from './dashboard-page.js';
import { parseDuration } from './duration.js';
import { Feed } from './feed.js';
import type { FeedEvent } from './feed-events.js';
import { LiveMetrics } from './live-metrics.js';
import { loadPolicies } from './load-policies.js';
import type { Policies } from './policy-types.js';
import { watchFile } from './policy-watcher.js';
import { RecentActivity } from './recent-activity.js';
import { ShadowQueue } from './shadow-queue.js';
import type { CallVerdict, SessionVerdict } from './verdict-types.js';

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
  readonly upstream: Pick<NonNullable<CapturedRound['upstream']>, 'status' | 'firstByteMs' | 'totalMs'> | undefined;
  readonly proxyError: CapturedRound['proxyError'];
}

export interface LiveService extends LiveTap {
  /** Answers `/metrics` and `/calltape/…`; false when the path is not an admin one. */
  handle(request: IncomingMessage, response: ServerResponse): boolean;
  /** Takes a WebSocket upgrade to `/calltape/feed`; false when the path is another. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** The proxy listens: LLM judges and embeddings go through it. */
  listening(baseUrl: string): void;
  readonly metrics: LiveMetrics;
  /** Round trips accepted, dropped and waiting in the shadow queue (all 0 when shadow scoring is off). */
  queueStats(): { readonly accepted: number; readonly dropped: number; readonly depth: number };
  close(): Promise<void>;
}

/**
 * The live side of the proxy: Prometheus metrics, the admin surfaces (dashboard, feed, state
 * API) behind the admin token, and — when a policies file is configured — shadow scoring of
 * every round trip off the response path, with alerts and hot reload of the policies.
 */
export function createLiveService(config: Config, logger: Logger, redactor: Redactor): LiveService {
  const token = config.admin.token ?? undefined;
  if (!token && !isLoopbackHost(config.host)) {
    throw new CalltapeError('CONFIG_INVALID', `host ${config.host}: the admin surfaces (/metrics, /calltape/) would be open to the network; set an admin token (--admin-token, CALLTAPE_ADMIN_TOKEN or admin.token) or listen on 127.0.0.1`);
  }
  let policies: Policies | undefined = config.shadow.policies ? loadPolicies(config.shadow.policies, process.cwd()) : undefined;
  const recent = new RecentActivity();
  let queue: ShadowQueue | undefined;
  const metrics = new LiveMetrics(() => queue?.depth ?? 0);
  const feed = new Feed((clients) => metrics.feedClients.set(clients), () => metrics.feedDropped.inc());
  let alerts = policies ? alertWindowFor(policies) : undefined;
  const publish = (event: FeedEvent): void => feed.publish(event);

  const onCalls = (verdicts: readonly CallVerdict[]): void => {
    metrics.calls(verdicts);
    recent.addCalls(verdicts);
    for (const verdict of verdicts) {
      if (verdict.evaluated.length === 0) continue;
      publish({ type: 'call.scored', ...verdict });
      for (const policy of verdict.evaluated) noteAlert(policy, verdict.failures.some((failure) => failure.policy === policy));
    }
  };
  const onSessions = (verdicts: readonly SessionVerdict[]): void => {
    metrics.sessionVerdicts(verdicts);
    recent.addSessions(verdicts);
    for (const verdict of verdicts) {
      publish({ type: 'session.scored', ...verdict });
      for (const policy of verdict.evaluated) noteAlert(policy, verdict.failures.some((failure) => failure.policy === policy && failure.reason !== 'judge_error' && failure.reason !== 'case_error'));
    }
  };
  const noteAlert = (policy: string, failed: boolean): void => {
    const alert = alerts?.window.note(policy, failed, Date.now());
    if (alert && alerts) raise(alert, alerts.webhook);
  };
  const raise = (alert: Alert, webhook: string): void => {
    metrics.alerts.inc({ policy: alert.policy });
    publish({ type: 'alert', ...alert });
    logger.error(`alert: policy ${alert.policy} passed ${(alert.passRate * 100).toFixed(1)}% of ${alert.evaluated} evaluations in the last ${Math.round(alert.windowMs / 1000)} s (threshold ${(alert.threshold * 100).toFixed(1)}%)`);
    const body = JSON.stringify({ source: 'calltape', kind: 'pass_rate_below_threshold', ...alert, at: new Date(alert.at).toISOString() });
    undiciRequest(webhook, { method: 'POST', headers: { 'content-type': 'application/json' }, body, headersTimeout: 10_000, bodyTimeout: 10_000 })
      .then(async (response) => {
        await response.body.dump();
        if (response.statusCode >= 300) throw new Error(`HTTP ${response.statusCode}`);
      })
      .catch((error: unknown) => {
        metrics.alertDeliveryFailures.inc();
        logger.error(`alert webhook ${redactor.path(webhook)} failed: ${(error as Error).message}`);
      });
  };

  let watcher: { close(): void } | undefined;
  if (policies) {
    const retentionAge = config.shadow.retention.maxAge === null ? null : (parseDuration(config.shadow.retention.maxAge) ?? null);
    queue = new ShadowQueue(
      { database: config.shadow.database, retention: { maxRows: config.shadow.retention.maxRows, maxAgeMs: retentionAge }, redactHeaders: config.redact.headers, bodyPatterns: config.redact.bodyPatterns, policies },
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
        publish({ type: 'policies.reloaded', at: Date.now(), ok: true, message: `${next.policies.length} policies in force` });
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
    metrics.request(round.adapterId, model, upstream?.status, upstream?.firstByteMs, upstream?.totalMs ?? 0);
    if (feed.size === 0) return;
    publish({ type: 'call.captured', at: round.request.startedAt, interactionId: round.request.id, sessionId: round.request.sessionId, route: round.adapterId, model: model ?? 'unknown', status: upstream?.status ?? round.proxyError?.status ?? null, firstByteMs: upstream?.firstByteMs ?? null, totalMs: upstream?.totalMs ?? 0 });
  }

  const authorized = (request: IncomingMessage): boolean => token === undefined || tokenMatches(presentedToken(request), token);
  const unauthorized = (response: ServerResponse): void => {
    response
      .writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="calltape"' })
      .end(JSON.stringify({ error: { message: 'calltape: this admin surface needs the admin token (Authorization: Bearer <token>, or ?token= in a browser)', type: 'calltape_unauthorized' } }));
  };

  return {
    capturing: queue !== undefined,
    metrics,
    answered,
    round(round, model) {
      answered(round, model);
      if (!queue) return;
      const dropped = queue.dropped;
      queue.offer(round);
      metrics.queuedRound(queue.dropped > dropped);
    },
    handle(request, response) {
      const url = new URL(request.url ?? '/', 'http://calltape');
      const path = url.pathname;
      if (path !== '/metrics' && path !== '/calltape' && !path.startsWith('/calltape/')) return false;
      if (!authorized(request)) {
        unauthorized(response);
        return true;
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response.writeHead(405, { allow: 'GET', 'content-type': 'application/json' }).end('{"error":{"message":"calltape: admin surfaces answer GET only","type":"invalid_request_error"}}');
        return true;
      }
      if (path === '/metrics') {
        metrics.registry.metrics().then(
          (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
          (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(`calltape: metrics failed: ${(error as Error).message}`),
        );
        return true;
      }
      if (path === '/calltape' || path === '/calltape/') {
        const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:" };
        // A token given in the address becomes a cookie scoped to the admin paths, so the page's own requests carry it.
        if (token !== undefined && url.searchParams.has('token')) headers['set-cookie'] = `${adminCookie}=${encodeURIComponent(token)}; Path=/calltape; HttpOnly; SameSite=Strict`;
        response.writeHead(200, headers).end(dashboardPage());
        return true;
      }
      if (path === '/calltape/api/state') {
        const state = {
          shadow: policies ? { policies: policies.policies.map((policy) => ({ id: policy.id, kind: policy.kind, threshold: policy.threshold ?? null })), file: policies.file } : null,
          queue: { depth: queue?.depth ?? 0, accepted: queue?.accepted ?? 0, dropped: queue?.dropped ?? 0 },
          ...recent.snapshot(),
        };
        response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(state));
        return true;
      }
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"calltape: no such admin path","type":"invalid_request_error"}}');
      return true;
    },
    upgrade(request, socket, head) {
      const path = new URL(request.url ?? '/', 'http://calltape').pathname;
      if (path !== '/calltape/feed') return false;
      if (!authorized(request)) {
        const body = JSON.stringify({ error: { message: 'calltape: the feed needs the admin token (?token= or Authorization: Bearer)', type: 'calltape_unauthorized' } });
        socket.end(`HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\nwww-authenticate: Bearer realm="calltape"\r\nconnection: close\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
        return true;
      }
      feed.accept(request, socket, head);
      return true;
    },
    listening(baseUrl) {
      queue?.setProxyUrl(baseUrl);
    },
    queueStats: () => ({ accepted: queue?.accepted ?? 0, dropped: queue?.dropped ?? 0, depth: queue?.depth ?? 0 }),
    async close() {
      watcher?.close();
      await queue?.close(config.timeouts.shutdownGraceMs);
      feed.close();
    },
  };
}

function alertWindowFor(policies: Policies): { window: AlertWindow; webhook: string } | undefined {
  if (!policies.alerts) return undefined;
  const thresholds = new Map(policies.policies.flatMap((policy) => (policy.threshold === undefined ? [] : [[policy.id, policy.threshold] as const])));
  return { window: new AlertWindow(policies.alerts, thresholds), webhook: policies.alerts.webhook };
}
