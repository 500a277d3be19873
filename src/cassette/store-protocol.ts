import type { BodyPattern } from '../config/config.js';
import type { MatchRules } from './canonical-request.js';
import type { CapturedRound } from './captured-round.js';

/** What the store worker is started with. */
export interface StoreWorkerData {
  readonly cassette: string;
  /** Matching rules; recordings keyed under other rules are re-keyed when the store opens. */
  readonly match: MatchRules;
  readonly redactHeaders: readonly string[];
  readonly bodyPatterns: readonly BodyPattern[];
}

/** Messages to the store worker. */
export type ToStoreWorker =
  | { readonly type: 'rounds'; readonly rounds: readonly CapturedRound[] }
  | { readonly type: 'close' };

/** Messages from the store worker. */
export type FromStoreWorker =
  | { readonly type: 'ready'; readonly rekeyed: number }
  | { readonly type: 'failed'; readonly message: string }
  | { readonly type: 'write-error'; readonly message: string; readonly lost: number }
  | { readonly type: 'closed' };
