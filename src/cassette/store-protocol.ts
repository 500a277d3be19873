import type { BodyPattern } from '../config/config.js';
import type { CapturedRound } from './captured-round.js';

/** What the store worker is started with. */
export interface StoreWorkerData {
  readonly cassette: string;
  readonly redactHeaders: readonly string[];
  readonly bodyPatterns: readonly BodyPattern[];
}

/** Messages to the store worker. */
export type ToStoreWorker =
  | { readonly type: 'rounds'; readonly rounds: readonly CapturedRound[] }
  | { readonly type: 'close' };

/** Messages from the store worker. */
export type FromStoreWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'failed'; readonly message: string }
  | { readonly type: 'write-error'; readonly message: string; readonly lost: number }
  | { readonly type: 'closed' };
