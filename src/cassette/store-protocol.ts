import type { BodyPattern } from '../config/config.js';
import type { MatchRules } from './canonical-request.js';
import type { CapturedRound } from './captured-round.js';

/** What the store worker is started with. */
export interface StoreWorkerData {
  /** Matching rules; recordings keyed under other rules are re-keyed when a cassette opens. */
  readonly match: MatchRules;
  readonly redactHeaders: readonly string[];
  readonly bodyPatterns: readonly BodyPattern[];
  /** `redact.builtinPatterns`. */
  readonly builtinPatterns: boolean;
  /** `limits.maxDecodedBytes`. */
  readonly maxDecodedBytes: number;
  /**
   * One 64-bit counter (`BigInt64Array`): the bytes of posted rounds the worker has handled
   * (stored or refused), a running total it adds to and the proxy reads to bound its queue. A
   * shared counter instead of a message per batch spares both threads a message each way.
   */
  readonly handledBytes: SharedArrayBuffer;
}

/** A captured round and the cassette it goes to. */
export interface RoutedRound {
  readonly cassette: string;
  readonly round: CapturedRound;
}

/** Messages to the store worker. */
export type ToStoreWorker =
  /** Open (create, migrate, re-key) a cassette; answered with `opened` or `open-failed`. */
  | { readonly type: 'open'; readonly cassette: string }
  | { readonly type: 'rounds'; readonly rounds: readonly RoutedRound[] }
  /** Compare a live round's tool calls with a recording's; answered with `diffed`. */
  | {
      readonly type: 'diff';
      readonly cassette: string;
      readonly recordingId: string;
      readonly round: CapturedRound;
    }
  /** Close one cassette's connection (the proxy closed it as least recently used). */
  | { readonly type: 'release'; readonly cassette: string }
  | { readonly type: 'close' };

/** Messages from the store worker. */
export type FromStoreWorker =
  | { readonly type: 'opened'; readonly cassette: string; readonly rekeyed: number }
  | { readonly type: 'open-failed'; readonly cassette: string; readonly message: string }
  | { readonly type: 'write-error'; readonly message: string; readonly lost: number }
  | {
      readonly type: 'diffed';
      readonly cassette: string;
      readonly recordingId: string;
      readonly request: string;
      readonly lines: readonly string[];
    }
  | { readonly type: 'closed' };
