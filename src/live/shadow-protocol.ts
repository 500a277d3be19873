import type { BodyPattern } from '../config/config.js';
import type { CapturedRound } from '../cassette/captured-round.js';
import type { Policies } from './policy-types.js';
import type { RelayedMcpCall } from './relayed-mcp-calls.js';
import type { Retention } from './shadow-store.js';
import type { CallVerdict, SessionVerdict } from './verdict-types.js';

export interface ShadowWorkerData {
  readonly database: string;
  readonly retention: Retention;
  readonly redactHeaders: readonly string[];
  readonly bodyPatterns: readonly BodyPattern[];
  /** `redact.builtinPatterns`. */
  readonly builtinPatterns: boolean;
  /** `limits.maxDecodedBytes`. */
  readonly maxDecodedBytes: number;
  readonly policies: Policies;
}

export type ToShadowWorker =
  | { readonly type: 'rounds'; readonly rounds: readonly CapturedRound[] }
  /** tools/calls the proxy's `/mcp/<name>` route relayed or answered (redacted), for the sessions they belong to. */
  | { readonly type: 'mcp-calls'; readonly calls: readonly RelayedMcpCall[] }
  | { readonly type: 'policies'; readonly policies: Policies }
  /** Where LLM judges and embeddings go: the proxy itself, once it listens. */
  | { readonly type: 'proxy-url'; readonly baseUrl: string }
  | { readonly type: 'close' };

export type FromShadowWorker =
  /** A batch of rounds is parsed, scored and stored: the next may come. Every tool call parsed has a verdict. */
  | { readonly type: 'batch-done'; readonly calls: readonly CallVerdict[] }
  | { readonly type: 'sessions'; readonly sessions: readonly SessionVerdict[] }
  | { readonly type: 'error'; readonly message: string }
  | { readonly type: 'closed' };
