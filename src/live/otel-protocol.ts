import type { Config } from '../config/config.js';
import type { CapturedRound } from '../cassette/captured-round.js';
import type { SpannedExchange } from '../mcp/mcp-spans.js';
import type { OtlpSettings } from '../otel/otlp-settings.js';
import type { CallVerdict, SessionVerdict } from './verdict-types.js';

/** What the OpenTelemetry export worker is started with. */
export interface OtelWorkerData {
  readonly settings: OtlpSettings;
  /** The redaction the store applies: the one step every sink is behind. */
  readonly redact: Config['redact'];
  /** `limits.maxDecodedBytes`: what parsing one round may decode. */
  readonly maxDecodedBytes: number;
  /** A session with no round for this long is ended (its `invoke_agent` span is sent). */
  readonly sessionIdleMs: number;
}

/**
 * One thing to trace, in the order the proxy saw it: a finished round (raw, redacted in the
 * worker), an MCP exchange of the `/mcp/<name>` route (already redacted), or shadow verdicts.
 * One ordered stream, so a tools/call follows the round that asked for it and a verdict the
 * rounds it judged.
 */
export type OtelItem =
  | { readonly type: 'round'; readonly round: CapturedRound }
  | { readonly type: 'mcp'; readonly exchange: SpannedExchange }
  | { readonly type: 'calls'; readonly verdicts: readonly CallVerdict[] }
  | { readonly type: 'sessions'; readonly verdicts: readonly SessionVerdict[] };

/** Messages to the export worker. */
export type ToOtelWorker =
  | { readonly type: 'items'; readonly items: readonly OtelItem[] }
  /** Trace what came before, end every session, send what the exporter can within `graceMs`, answer `closed`. */
  | { readonly type: 'close'; readonly graceMs: number };

/** Messages from the export worker; counts are what changed since the last report. */
export type FromOtelWorker =
  | {
      readonly type: 'counts';
      /** Rounds and MCP exchanges of earlier `items` messages now traced (or lost): room again in the proxy's bound. */
      readonly handled: number;
      /** The raw bytes of the rounds among them (`roundBytes`): room again in the proxy's byte bound. */
      readonly handledBytes: number;
      /** Spans the collector accepted. */
      readonly exported: number;
      /** Rounds that could not be traced (unparseable). */
      readonly droppedRounds: number;
      /** Spans lost: the export queue was full, or the collector failed their batch after retries. */
      readonly droppedSpans: number;
    }
  | { readonly type: 'log'; readonly level: 'info' | 'error'; readonly message: string }
  | { readonly type: 'closed' };
